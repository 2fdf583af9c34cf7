import ArtpipeSupport
import PipelineContract

/// How a worker runs, apart from its handler.
public struct WorkerConfiguration: Sendable {
    /// The worker's name in logs, metrics and dead letters (`fetch`, `thumb`, `index`).
    public var name: String
    /// The topics it consumes.
    public var topics: [String]
    /// Partitions handled at the same time; within a partition, messages go one by one.
    public var concurrency: Int
    /// Retries in place, for workers without a retry schedule.
    public var retry: RetryPolicy
    /// Where messages that failed for the moment wait, so the partition moves on; nil to retry in place.
    public var retrySchedule: RetrySchedule?
    public var deadLetterTopic: String
    /// How long to wait for queued records at shutdown.
    public var producerFlushTimeout: Duration

    public init(
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
