import ArtpipeSupport
import KafkaClient
import PipelineContract

/// How a worker runs, apart from its handler.
package struct WorkerConfiguration: Sendable {
    /// The worker's name in logs, metrics and dead letters (`fetch`, `thumb`, `index`).
    var name: String
    /// The topics it consumes.
    package var topics: [String]
    /// Partitions handled at the same time; within a partition, messages go one by one.
    var concurrency: Int
    /// Retries in place, for workers without a retry schedule.
    var retry: RetryPolicy
    /// Where messages that failed for the moment wait, so the partition moves on; nil to retry in place.
    var retrySchedule: RetrySchedule?
    var deadLetterTopic: String
    /// How long to wait for queued records at shutdown.
    var producerFlushTimeout: Duration
    /// Whether the runtime shuts its producer down when it stops. False when ``WorkerLauncher``
    /// runs it: its workers share one producer, which the first to stop would take from the
    /// others, so the launcher shuts it down after the last.
    package var ownsProducer = true
    /// Asked before each send: while it fences, outputs wait (``GroupMembershipFence``).
    package var fence: GroupMembershipFence?

    package init(
        name: String, topics: [String], concurrency: Int = 4, retry: RetryPolicy = RetryPolicy(),
        retrySchedule: RetrySchedule? = nil, deadLetterTopic: String = ArtpipeTopic.deadLetters,
        producerFlushTimeout: Duration = .seconds(10)
    ) {
        self.retrySchedule = retrySchedule
        self.name = name
        self.topics = topics
        self.concurrency = concurrency
        self.retry = retry
        self.deadLetterTopic = deadLetterTopic
        self.producerFlushTimeout = producerFlushTimeout
    }
}
