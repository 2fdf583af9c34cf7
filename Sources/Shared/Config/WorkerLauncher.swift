import Logging
import Metrics
import ServiceLifecycle

/// Starts a worker process: checks the configuration and the brokers, then runs the worker
/// and its metrics reporter until SIGTERM or SIGINT.
public enum WorkerLauncher {
    /// What the launcher needs from a worker command.
    public struct Worker<Handler: MessageHandler>: Sendable {
        public var name: String
        public var groupID: String
        public var topics: [String]
        public var handler: Handler
        /// Services that run beside the worker and stop after it (a writer flushing its state).
        public var services: [any Service]
        /// Adjusts the consumer: offsets the handler keeps itself, revoke hooks.
        public var configureConsumer: @Sendable (inout KafkaConsumerConfiguration) -> Void

        public init(
            name: String, groupID: String, topics: [String], handler: Handler, services: [any Service] = [],
            configureConsumer: @escaping @Sendable (inout KafkaConsumerConfiguration) -> Void = { _ in }
        ) {
            self.name = name
            self.groupID = groupID
            self.topics = topics
            self.handler = handler
            self.services = services
            self.configureConsumer = configureConsumer
        }
    }

    /// Bootstraps swift-metrics with a ``LoggedMetricsFactory``; once per process.
    public static func bootstrapMetrics() -> LoggedMetricsFactory {
        let factory = LoggedMetricsFactory()
        MetricsSystem.bootstrap(factory)
        return factory
    }

    /// Runs the worker until SIGTERM or SIGINT, then calls `onStop` (close what the handler
    /// holds), whether the worker stopped cleanly or not. `companions` are services that
    /// watch the consumer (a health and metrics endpoint); they stop after the worker.
    public static func run<Handler: MessageHandler>(
        _ worker: Worker<Handler>, options: WorkerOptions, metricsFactory: LoggedMetricsFactory, logger: Logger,
        companions: @Sendable (KafkaConsumer) -> [any Service] = { _ in [] },
        onStop: @Sendable () async -> Void = {}
    ) async throws {
        do {
            try await runUntilStopped(
                worker, options: options, metricsFactory: metricsFactory, logger: logger, companions: companions)
        } catch {
            await onStop()
            throw error
        }
        await onStop()
    }

    private static func runUntilStopped<Handler: MessageHandler>(
        _ worker: Worker<Handler>, options: WorkerOptions, metricsFactory: LoggedMetricsFactory, logger: Logger,
        companions: @Sendable (KafkaConsumer) -> [any Service]
    ) async throws {
        // Caught before the slow part of starting, so a SIGTERM then still ends in a clean exit.
        let signals = ShutdownSignals()
        let client = try options.kafka.clientConfiguration()
        var consumerConfiguration = KafkaConsumerConfiguration(client: client, groupID: worker.groupID)
        consumerConfiguration.maxBufferedPerPartition = options.maxBuffered
        consumerConfiguration.maxBufferedBytesPerPartition = options.maxBufferedMib << 20
        consumerConfiguration.drainTimeout = .milliseconds(Int64(options.drainTimeout * 1_000))
        consumerConfiguration.statisticsInterval = .milliseconds(Int64(options.metricsInterval * 1_000))
        worker.configureConsumer(&consumerConfiguration)

        let producer: KafkaProducer
        let consumer: KafkaConsumer
        do {
            producer = try KafkaProducer(configuration: client, logger: logger)
            consumer = try KafkaConsumer(configuration: consumerConfiguration, logger: logger)
        } catch let error as KafkaError {
            throw ConfigurationError(error.message)
        }
        do {
            try await checkTopics(worker.topics + [ArtpipeTopic.deadLetters], producer: producer, options: options)
        } catch {
            await producer.shutdown(timeout: .zero)
            throw error
        }

        let runtime = WorkerRuntime(
            configuration: WorkerConfiguration(
                name: worker.name, topics: worker.topics, concurrency: options.effectiveConcurrency),
            consumer: consumer, producer: producer, handler: worker.handler,
            metrics: WorkerMetrics(worker: worker.name),
            logger: logger)
        let reporter = MetricsLogReporter(
            factory: metricsFactory, interval: .milliseconds(Int64(options.metricsInterval * 1_000)),
            logger: logger.with(metadata: ["worker": "\(worker.name)"])
        ) { runtime.sampleGauges() }
        // Shutdown runs in reverse order: the worker drains first, then its companions, then
        // the last metrics line.
        var groupConfiguration = ServiceGroupConfiguration(
            services: [reporter] + companions(consumer) + worker.services + [runtime], logger: logger)
        // A handler stuck past the drain timeout must not keep the process from exiting.
        groupConfiguration.maximumGracefulShutdownDuration = .milliseconds(Int64((options.drainTimeout + 15) * 1_000))
        groupConfiguration.maximumCancellationDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfiguration)
        let watcher = Task {
            if let signal = await signals.next() {
                logger.info("shutting down", metadata: ["signal": "\(signal)"])
                await group.triggerGracefulShutdown()
            }
        }
        defer { watcher.cancel() }
        try await group.run()
    }

    /// Fails with a configuration error when the brokers do not answer or a topic is missing.
    static func checkTopics(_ topics: [String], producer: KafkaProducer, options: WorkerOptions) async throws {
        let brokers = (try? options.kafka.clientConfiguration().brokers) ?? "?"
        let metadata: KafkaMetadata
        do {
            metadata = try await producer.metadata(timeout: options.kafka.connectTimeoutDuration)
        } catch {
            throw ConfigurationError(
                "cannot reach Kafka brokers at \(brokers) within \(options.kafka.connectTimeout)s: \(error)")
        }
        let missing = topics.filter { metadata.partitionsByTopic[$0] == nil }
        guard missing.isEmpty else {
            throw ConfigurationError(
                "topic \(missing.joined(separator: ", ")) does not exist on \(brokers); create it with `artpipe topics create`"
            )
        }
    }
}

extension Logger {
    /// A copy with extra metadata.
    public func with(metadata: Logger.Metadata) -> Logger {
        var copy = self
        for (key, value) in metadata { copy[metadataKey: key] = value }
        return copy
    }
}
