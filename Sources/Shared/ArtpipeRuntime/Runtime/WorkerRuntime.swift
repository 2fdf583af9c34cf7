import ArtpipeSupport
import KafkaClient
import Logging
import ServiceLifecycle
import Synchronization

/// Runs a ``MessageHandler``: consume → decode → handle → produce outputs → wait for their
/// acknowledgements → mark the offset finished (committed in the background).
///
/// Messages of one partition are handled in order, one at a time; up to
/// `configuration.concurrency` partitions are handled at once. On graceful shutdown it stops
/// taking messages, lets the ones being handled finish (bounded by the consumer's drain
/// timeout), commits, leaves the group and flushes the producer, which it then shuts down.
package final class WorkerRuntime<Handler: MessageHandler>: Service {
    let configuration: WorkerConfiguration
    let consumer: KafkaConsumer
    let producer: KafkaProducer
    let handler: Handler
    let metrics: WorkerMetrics
    let logger: Logger
    let limit: ConcurrencyLimit
    let inFlight = Atomic<Int>(0)
    /// Set when the Kafka client failed for good: the worker stops and `run` throws it.
    let fatalError = Mutex<KafkaError?>(nil)

    package init(
        configuration: WorkerConfiguration, consumer: KafkaConsumer, producer: KafkaProducer, handler: Handler,
        metrics: WorkerMetrics, logger: Logger
    ) {
        self.configuration = configuration
        self.consumer = consumer
        self.producer = producer
        self.handler = handler
        self.metrics = metrics
        self.logger = logger
        self.limit = ConcurrencyLimit(configuration.concurrency)
    }

    package func run() async throws {
        try consumer.subscribe(topics: configuration.topics)
        logger.info(
            "worker started",
            metadata: [
                "kafka.topics": "\(configuration.topics.joined(separator: ","))", "worker": "\(configuration.name)",
            ])
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await self.consumer.run() }
                group.addTask { await self.dispatchBatches() }
            }
        } onGracefulShutdown: {
            self.logger.info("shutting down: finishing in-flight work")
            self.consumer.shutdown()
        }
        if configuration.ownsProducer { await producer.shutdown(timeout: configuration.producerFlushTimeout) }
        if let error = fatalError.withLock({ $0 }) {
            logger.critical("worker stopped: the Kafka client failed for good", metadata: ["kafka.error": "\(error)"])
            throw error
        }
        logger.info("worker stopped")
    }

    /// Stops taking messages after a fatal client error; `run` then throws it, so the process
    /// exits non-zero and its supervisor starts a new one with a new client.
    func stopFatally(_ error: KafkaError) {
        let first = fatalError.withLock { stored in
            defer { stored = stored ?? error }
            return stored == nil
        }
        guard first else { return }
        logger.critical("the Kafka client failed for good; stopping", metadata: ["kafka.error": "\(error)"])
        consumer.shutdown()
    }

    /// Records the gauges read from elsewhere; returns the lag per partition, and the held
    /// partitions not being fetched (only when there are some), as line fields.
    @discardableResult
    func sampleGauges() -> Logger.Metadata {
        metrics.inFlight.record(inFlight.load(ordering: .relaxed))
        let lag = consumer.lag
        metrics.consumerLag.record(lag?.total ?? 0)
        var partitions: Logger.Metadata = [:]
        for (topicPartition, value) in lag?.partitions ?? [:] {
            partitions[topicPartition.description] = .stringConvertible(value)
        }
        var fields: Logger.Metadata = ["consumer_lag_partitions": .dictionary(partitions)]
        if let notFetching = consumer.fetchStates?.notFetching, !notFetching.isEmpty {
            fields["consumer_partitions_not_fetching"] = .dictionary(
                Dictionary(uniqueKeysWithValues: notFetching.map { ($0.key.description, .string($0.value)) }))
        }
        return fields
    }

    /// Routes each batch to its partition's lane; a lane handles its batches in order.
    private func dispatchBatches() async {
        await withDiscardingTaskGroup { group in
            var lanes: [KafkaTopicPartition: AsyncStream<KafkaMessageBatch>.Continuation] = [:]
            for await batch in consumer.batches {
                if let lane = lanes[batch.topicPartition] {
                    lane.yield(batch)
                    continue
                }
                let (stream, lane) = AsyncStream.makeStream(of: KafkaMessageBatch.self)
                lanes[batch.topicPartition] = lane
                lane.yield(batch)
                group.addTask {
                    for await batch in stream { await self.process(batch) }
                }
            }
            for lane in lanes.values { lane.finish() }
        }
    }
}
