import KafkaClient
import Logging

/// What a handler gets besides its decoded input: the raw message and a logger for it.
public struct MessageContext: Sendable {
    public let message: KafkaConsumerMessage
    /// 1 for the first attempt, then counting retries.
    public let attempt: Int
    private let baseLogger: Logger

    public init(message: KafkaConsumerMessage, attempt: Int, logger: Logger) {
        self.message = message
        self.attempt = attempt
        self.baseLogger = logger
    }

    /// A logger whose lines carry the message's topic, partition, offset and key. Built when
    /// asked for, so handlers that log nothing pay nothing for it.
    public var logger: Logger { baseLogger.describing(message) }
}
