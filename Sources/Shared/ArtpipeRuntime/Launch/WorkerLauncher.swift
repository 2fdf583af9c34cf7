import ArtpipeSupport
import KafkaClient
import Logging
import Metrics
import PipelineContract
import ServiceLifecycle
import UnixSignals

/// Starts a worker process: checks the configuration and the brokers, then runs the worker
/// and its metrics reporter until SIGTERM or SIGINT.
package enum WorkerLauncher {
    /// What the launcher needs from a worker command.
    package struct Worker<Handler: MessageHandler>: Sendable {
        package var name: String
        var groupID: String
        package var topics: [String]
        var handler: Handler
        /// Where messages that failed for the moment wait; nil to retry them in place.
        var retrySchedule: RetrySchedule?
        /// Services that run beside the worker and stop after it (a writer flushing its state).
        var services: [any Service]
        /// Adjusts the consumer: offsets the handler keeps itself, revoke hooks.
        var configureConsumer: @Sendable (inout KafkaConsumerConfiguration) -> Void

        package init(
            name: String, groupID: String, topics: [String], handler: Handler, retrySchedule: RetrySchedule? = nil,
            services: [any Service] = [],
            configureConsumer: @escaping @Sendable (inout KafkaConsumerConfiguration) -> Void = { _ in }
        ) {
            self.retrySchedule = retrySchedule
            self.name = name
            self.groupID = groupID
            self.topics = topics
            self.handler = handler
            self.services = services
            self.configureConsumer = configureConsumer
        }

        /// One of the pipeline's workers, named, grouped and subscribed as the contract says.
        ///
        /// A stage with retry topics waits `retryDelays` (one per topic) between attempts and
        /// gives up `retryFor` after the first failure.
        package init(
            stage: PipelineStage, handler: Handler, retryDelays: [Duration] = RetrySchedule.defaultDelays,
            retryFor: Duration = RetrySchedule.defaultGiveUpAfter, services: [any Service] = [],
            configureConsumer: @escaping @Sendable (inout KafkaConsumerConfiguration) -> Void = { _ in }
        ) {
            self.init(
                name: stage.workerName, groupID: stage.groupID, topics: stage.inputTopics, handler: handler,
                retrySchedule: stage.retryTopics.isEmpty
                    ? nil : RetrySchedule(topics: stage.retryTopics, delays: retryDelays, giveUpAfter: retryFor),
                services: services, configureConsumer: configureConsumer)
        }
    }

    /// Bootstraps swift-metrics with a ``LoggedMetricsFactory``; once per process.
    package static func bootstrapMetrics() -> LoggedMetricsFactory {
        let factory = LoggedMetricsFactory()
        MetricsSystem.bootstrap(factory)
        return factory
    }

    /// Runs the worker until SIGTERM or SIGINT, then calls `onStop` (close what the handler
    /// holds), whether the worker stopped cleanly or not. `companions` are services that
    /// watch the consumer (a health and metrics endpoint); they stop after the worker.
    package static func run<Handler: MessageHandler>(
        _ worker: Worker<Handler>, settings: WorkerLaunchSettings, metricsFactory: LoggedMetricsFactory,
        logger: Logger, companions: @Sendable ([KafkaConsumer]) -> [any Service] = { _ in [] },
        onStop: @Sendable () async -> Void = {}
    ) async throws {
        do {
            try await runUntilStopped(
                worker, settings: settings, metricsFactory: metricsFactory, logger: logger, companions: companions)
        } catch {
            await onStop()
            throw error
        }
        await onStop()
    }

    /// Runs several workers in one process until SIGTERM or SIGINT: the index's stages, each a
    /// group of its own. One producer; one metrics line with every worker's gauges;
    /// `companions` watch every worker's consumer.
    package static func run(
        _ workers: [any LaunchableWorker], services: [any Service] = [], settings: WorkerLaunchSettings,
        metricsFactory: LoggedMetricsFactory, logger: Logger,
        companions: @Sendable ([KafkaConsumer]) -> [any Service] = { _ in [] }
    ) async throws {
        // Caught before the slow part of starting, so a SIGTERM then still ends in a clean exit.
        let signals = await UnixSignalsSequence.shutdownSignals()
        // From here a SIGTERM stops the worker cleanly, however early.
        logger.info(
            "starting: checking the brokers and topics",
            metadata: [
                "kafka.brokers": "\(settings.client.brokers)",
                "worker": "\(workers.map(\.name).joined(separator: ","))",
                "librdkafka.version": "\(KafkaLibraryVersion.description)",
            ])
        let producer: KafkaProducer
        var prepared: [PreparedWorker] = []
        do {
            producer = try KafkaProducer(
                configuration: settings.client, linger: settings.producerLinger,
                acknowledged: settings.acknowledgedOffsets, deliveryTimeout: settings.producerDeliveryTimeout,
                logger: logger)
        } catch let error as KafkaError {
            throw ConfigurationError(error.message)
        }
        do {
            try await checkTopics(
                Array(Set(workers.flatMap(\.checkedTopics) + [ArtpipeTopic.deadLetters])).sorted(), producer: producer,
                settings: settings)
            // --max-buffered-total-mib bounds the process: workers in one process share it.
            var shares = settings
            shares.maxBufferedBytesTotal = settings.maxBufferedBytesTotal / max(workers.count, 1)
            for worker in workers {
                prepared.append(try worker.prepare(settings: shares, producer: producer, logger: logger))
            }
        } catch {
            await producer.shutdown(timeout: .zero)
            if let error = error as? KafkaError { throw ConfigurationError(error.message) }
            throw error
        }
        let ready = prepared
        let reporter = MetricsLogReporter(
            factory: metricsFactory, interval: settings.metricsInterval,
            logger: logger.with(metadata: ["worker": "\(workers.map(\.name).joined(separator: ","))"])
        ) {
            ready.reduce(into: Logger.Metadata()) { metadata, worker in
                metadata.merge(worker.sampleGauges()) { first, _ in first }
            }
        }
        // Shutdown runs in reverse order: the workers drain first (the first given first, so a
        // stage upstream stops before those it feeds), then the services beside them, then
        // their companions, then the last metrics line.
        var groupConfiguration = ServiceGroupConfiguration(
            services: [reporter] + companions(ready.map(\.consumer)) + services + ready.reversed().map(\.runtime),
            logger: logger)
        // A handler stuck past the drain timeout must not keep the process from exiting: the
        // services are cancelled, and a call that ignores its cancellation is ended by the
        // deadline below (exit 1, with a line saying so). ServiceLifecycle's own bound on the
        // cancellation ends the process with a trap (SIGILL, its reason on stderr only), so it
        // comes after the deadline: only a shutdown no signal began (a service that failed)
        // reaches it.
        groupConfiguration.maximumGracefulShutdownDuration = settings.drainTimeout + .seconds(15)
        groupConfiguration.maximumCancellationDuration = .seconds(20)
        let group = ServiceGroup(configuration: groupConfiguration)
        let deadline = ShutdownDeadline(limit: settings.drainTimeout + .seconds(25))
        let watcher = Task {
            for await signal in signals {
                logger.info("shutting down", metadata: ["signal": "\(signal)"])
                deadline.arm(logger: logger)
                await group.triggerGracefulShutdown()
                return
            }
        }
        defer { watcher.cancel() }
        // The workers share the producer: it is flushed and shut down once every one stopped.
        do {
            try await group.run()
        } catch {
            await producer.shutdown()
            throw error
        }
        await producer.shutdown()
    }

    private static func runUntilStopped<Handler: MessageHandler>(
        _ worker: Worker<Handler>, settings: WorkerLaunchSettings, metricsFactory: LoggedMetricsFactory,
        logger: Logger, companions: @Sendable ([KafkaConsumer]) -> [any Service]
    ) async throws {
        try await run(
            [worker], services: worker.services, settings: settings, metricsFactory: metricsFactory, logger: logger,
            companions: companions)
    }

    /// Fails with a configuration error when the brokers do not answer or a topic is missing.
    static func checkTopics(_ topics: [String], producer: KafkaProducer, settings: WorkerLaunchSettings) async throws {
        let brokers = settings.client.brokers
        let metadata = try await KafkaBrokerCheck.metadata(
            producer: producer, brokers: brokers, timeout: settings.connectTimeout)
        if let missing = KafkaBrokerCheck.missingTopics(topics, in: metadata, brokers: brokers) { throw missing }
    }
}
