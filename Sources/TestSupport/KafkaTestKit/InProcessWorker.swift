import ArtpipeRuntime
import ArtpipeSupport
import ArtpipeTestKit
import KafkaClient
import Logging
import PipelineContract

/// A ``WorkerRuntime`` running in the test process against a real broker, with the settings
/// the embedded broker needs for quick rebalances.
package final class InProcessWorker<Handler: MessageHandler>: Sendable {
    package let consumer: KafkaConsumer
    package let producer: KafkaProducer
    private let task: Task<Void, any Error>

    package init(
        brokers: String, group: String, topics: [String], handler: Handler, retry: RetryPolicy = RetryPolicy(),
        retrySchedule: RetrySchedule? = nil, deadLetterTopic: String = ArtpipeTopic.deadLetters, concurrency: Int = 4,
        acknowledged: KafkaAcknowledgedOffsets? = nil, logger: Logger = .test,
        configureConsumer: (inout KafkaConsumerConfiguration) -> Void = { _ in }
    ) throws {
        let client = KafkaClientConfiguration(brokers: brokers, properties: EmbeddedBrokerSettings.consumer)
        var configuration = KafkaConsumerConfiguration(client: client, groupID: group)
        configuration.drainTimeout = .seconds(10)
        configureConsumer(&configuration)
        consumer = try KafkaConsumer(configuration: configuration, logger: logger)
        let producer = try KafkaProducer(
            configuration: KafkaClientConfiguration(brokers: brokers), acknowledged: acknowledged, logger: logger)
        self.producer = producer
        let runtime = WorkerRuntime(
            configuration: WorkerConfiguration(
                name: "probe", topics: topics + (retrySchedule?.topics ?? []), concurrency: concurrency, retry: retry,
                retrySchedule: retrySchedule, deadLetterTopic: deadLetterTopic),
            consumer: consumer, producer: producer, handler: handler, metrics: WorkerMetrics(worker: "probe"),
            logger: logger)
        task = Task { try await runtime.run() }
    }

    /// Waits for the worker to stop on its own, returning what it stopped with.
    package func waitForEnd() async -> Result<Void, any Error> {
        await task.result
    }

    /// Stops as a SIGTERM would: finish in-flight work, commit, leave the group.
    package func stop() async throws {
        consumer.shutdown()
        try await task.value
    }
}
