import Foundation
import KafkaClient
import Logging
import PipelineContract

/// What a handler gets besides its decoded input: the raw message and a logger for it.
package struct MessageContext: Sendable {
    package let message: KafkaConsumerMessage
    /// 1 for the first attempt, then counting retries.
    let attempt: Int
    /// The claim on the message's partition it is handled under; nil outside a worker. A new
    /// lease means the partition was assigned again and reading may have restarted anywhere.
    package let lease: KafkaPartitionLease?
    /// The retry topics a failure for the moment goes to; nil where the worker retries in place.
    let retrySchedule: RetrySchedule?
    private let baseLogger: Logger

    package init(
        message: KafkaConsumerMessage, attempt: Int, lease: KafkaPartitionLease? = nil,
        retrySchedule: RetrySchedule? = nil, logger: Logger
    ) {
        self.message = message
        self.attempt = attempt
        self.lease = lease
        self.retrySchedule = retrySchedule
        self.baseLogger = logger
    }

    /// Whether a failure for the moment (``HandlerFailure/forNow(_:retryAfter:outputs:retryHeaders:)``) thrown now
    /// would be retried on the retry topics, rather than go to the dead letters: a handler that
    /// has a better last word than a dead letter (a page with some images failed) says it instead.
    ///
    /// A few seconds short of the schedule's limit, so the worker, looking a moment later, agrees.
    package func retriesFailure(waiting retryAfter: Duration? = nil, now: Date = Date()) -> Bool {
        guard let retrySchedule, retryAfter ?? .zero <= retrySchedule.giveUpAfter else { return false }
        let firstFailure = RetryState(headers: message.headers)?.firstFailure ?? now
        return !retrySchedule.isExhausted(firstFailure: firstFailure, now: now.addingTimeInterval(5))
    }

    /// A logger whose lines carry the message's topic, partition, offset and key. Built when
    /// asked for, so handlers that log nothing pay nothing for it.
    package var logger: Logger { baseLogger.describing(message) }
}
