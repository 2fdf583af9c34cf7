import KafkaClient
import Logging

/// What a handler gets besides its decoded input: the raw message and a logger for it.
public struct MessageContext: Sendable {
    public let message: KafkaConsumerMessage
    /// 1 for the first attempt, then counting retries.
    public let attempt: Int
    /// The claim on the message's partition it is handled under; nil outside a worker. A new
    /// lease means the partition was assigned again and reading may have restarted anywhere.
    public let lease: KafkaPartitionLease?
    private let baseLogger: Logger

    public init(message: KafkaConsumerMessage, attempt: Int, lease: KafkaPartitionLease? = nil, logger: Logger) {
        self.message = message
        self.attempt = attempt
        self.lease = lease
        self.baseLogger = logger
    }

    /// A logger whose lines carry the message's topic, partition, offset and key. Built when
    /// asked for, so handlers that log nothing pay nothing for it.
    public var logger: Logger { baseLogger.describing(message) }
}
