import KafkaClient
import Logging
import ServiceLifecycle

/// A worker ``WorkerLauncher`` can start beside others in one process, whatever its handler.
package protocol LaunchableWorker: Sendable {
    var name: String { get }
    /// The topics that must exist before it starts: its inputs and retry topics.
    var checkedTopics: [String] { get }
    /// Its consumer and runtime, built, not yet running. The runtime sends through `producer`
    /// and leaves it running when it stops: the caller shuts it down.
    func prepare(settings: WorkerLaunchSettings, producer: KafkaProducer, logger: Logger) throws -> PreparedWorker
}

/// A worker's consumer and runtime, ready to run as a service.
package struct PreparedWorker: Sendable {
    package let consumer: KafkaConsumer
    let runtime: any Service
    let sampleGauges: @Sendable () -> Logger.Metadata
}

extension WorkerLauncher.Worker: LaunchableWorker {
    package var checkedTopics: [String] { topics + (retrySchedule?.topics ?? []) }

    package func prepare(settings: WorkerLaunchSettings, producer: KafkaProducer, logger: Logger) throws
        -> PreparedWorker
    {
        var configuration = KafkaConsumerConfiguration(client: settings.client, groupID: groupID)
        configuration.maxBufferedPerPartition = settings.maxBufferedPerPartition
        configuration.maxBufferedBytesPerPartition = settings.maxBufferedBytesPerPartition
        configuration.maxBufferedBytesTotal = settings.maxBufferedBytesTotal
        configuration.drainTimeout = settings.drainTimeout
        configuration.statisticsInterval = settings.metricsInterval
        configuration.fence = settings.fence
        configureConsumer(&configuration)
        let consumer = try KafkaConsumer(configuration: configuration, logger: logger)
        var runtimeConfiguration = WorkerConfiguration(
            name: name, topics: topics, concurrency: settings.concurrency, retrySchedule: retrySchedule)
        runtimeConfiguration.ownsProducer = false
        runtimeConfiguration.fence = settings.fence
        let runtime = WorkerRuntime(
            configuration: runtimeConfiguration,
            consumer: consumer, producer: producer, handler: handler, metrics: WorkerMetrics(worker: name),
            logger: logger)
        return PreparedWorker(consumer: consumer, runtime: runtime, sampleGauges: { runtime.sampleGauges() })
    }
}
