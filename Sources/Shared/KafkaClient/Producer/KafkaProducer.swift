import Foundation
import Logging
import Synchronization

/// An idempotent producer whose `send` returns once the broker has acknowledged the records.
///
/// Delivery reports are served by a thread of its own. Call ``shutdown(timeout:)`` when done:
/// it flushes what is still queued, within the bound.
package final class KafkaProducer: Sendable {
    /// Running; asked to stop, with the callers waiting for the flush; stopped.
    private enum Lifecycle {
        case running
        case stopping(waiters: [CheckedContinuation<Void, Never>])
        case stopped
    }

    private let client: RDKafkaClient
    private let configuration: KafkaClientConfiguration
    private let stopRequested = Atomic<Bool>(false)
    private let lifecycle = Mutex<Lifecycle>(.running)
    private let flushTimeout = Mutex<Duration>(.seconds(10))
    private let logger: Logger

    /// - Parameter linger: how long a record waits for others to share its batch (`linger.ms`,
    ///   unless the configuration's properties set it).
    /// - Parameter acknowledged: where the offsets of the records it delivers are kept.
    /// - Parameter deliveryTimeout: how long a record may wait for its acknowledgement before it
    ///   fails (`message.timeout.ms`, unless the configuration's properties set it); librdkafka's
    ///   own (300 s) when nil.
    package init(
        configuration: KafkaClientConfiguration, linger: Duration = .milliseconds(5),
        acknowledged: KafkaAcknowledgedOffsets? = nil, deliveryTimeout: Duration? = nil, logger: Logger
    ) throws {
        let properties = configuration.clientProperties(
            defaults: [
                ("enable.idempotence", "true"),
                ("linger.ms", "\(linger.milliseconds)"),
                ("queue.buffering.max.messages", "500000"),
                ("reconnect.backoff.max.ms", "1000"),
            ] + (deliveryTimeout.map { [("message.timeout.ms", "\(max($0.milliseconds, 1))")] } ?? []))
        let callbacks = RDKafkaCallbacks(logger: logger)
        callbacks.deliveryReports = true
        callbacks.acknowledged = acknowledged
        self.client = try RDKafkaClient(type: .producer, properties: properties, callbacks: callbacks)
        self.configuration = configuration
        self.logger = logger
        acknowledged?.attach()
        startPolling()
    }

    private func startPolling() {
        // The thread keeps the producer alive until shutdown() stops it.
        let thread = Thread { [self] in self.pollUntilStopped() }
        thread.name = "kafka-producer"
        thread.start()
    }

    private func pollUntilStopped() {
        while !stopRequested.load(ordering: .acquiring) {
            client.poll(timeoutMilliseconds: 100)
        }
        let timeout = flushTimeout.withLock { $0 }
        if let (error, queued) = client.flush(timeoutMilliseconds: timeout.timeoutMilliseconds) {
            logger.error(
                "producer shut down with undelivered records",
                metadata: ["kafka.queued": "\(queued)", "kafka.error": "\(error)"])
        }
        let waiters = lifecycle.withLock { lifecycle in
            defer { lifecycle = .stopped }
            guard case .stopping(let waiters) = lifecycle else { return [CheckedContinuation<Void, Never>]() }
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Produces one record and waits for its acknowledgement.
    package func send(_ record: KafkaProducerRecord) async throws {
        try await send([record])
    }

    /// Makes the client fail as an idempotent producer does when the broker and it disagree
    /// for good, for tests of what the application does then.
    /// Returns librdkafka's answer (no error when the fatal error is now raised).
    package func triggerFatalErrorForTesting(reason: String) -> KafkaError? {
        client.triggerFatalErrorForTesting(reason: reason)
    }

    /// Produces the records and waits until every one is acknowledged.
    ///
    /// Throws the first delivery error. Records of one key keep their order.
    /// After a fatal error of the client (an idempotent producer that lost its sequence), every
    /// send throws an error whose ``KafkaError/isFatal`` is true.
    package func send(_ records: [KafkaProducerRecord]) async throws {
        guard !records.isEmpty else { return }
        let waiter = DeliveryWaiter(expected: records.count)
        for (index, record) in records.enumerated() {
            do {
                try await enqueue(record, waiter: waiter)
            } catch let error as KafkaError {
                waiter.abandon(count: records.count - index, error: error)
                break
            }
        }
        do {
            try await waiter.wait()
        } catch {
            // librdkafka reports the cause (a purged queue, the broker's error), not that it is fatal.
            throw fatalError() ?? error
        }
    }

    /// The client's fatal error, when it has one: nothing it produces can succeed any more.
    package func fatalError() -> KafkaError? {
        client.fatalError()
    }

    private func enqueue(_ record: KafkaProducerRecord, waiter: DeliveryWaiter) async throws {
        while let error = client.produce(record, waiter: waiter) {
            guard error.isQueueFull, !stopRequested.load(ordering: .relaxed) else { throw error }
            // The local queue is full: give the delivery thread time to drain it.
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Stops the delivery thread after flushing queued records for at most `timeout`.
    /// Safe to call more than once: later calls wait for the first one's flush.
    package func shutdown(timeout: Duration = .seconds(10)) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyStopped = lifecycle.withLock { lifecycle in
                switch lifecycle {
                case .running:
                    flushTimeout.withLock { $0 = timeout }
                    lifecycle = .stopping(waiters: [continuation])
                    stopRequested.store(true, ordering: .releasing)
                    return false
                case .stopping(var waiters):
                    waiters.append(continuation)
                    lifecycle = .stopping(waiters: waiters)
                    return false
                case .stopped:
                    return true
                }
            }
            if alreadyStopped { continuation.resume() }
        }
    }

    /// The cluster's topics, read over this producer's connection.
    package func metadata(timeout: Duration) async throws -> KafkaMetadata {
        try await configuration.runBlocking { [client] in
            try client.metadata(timeoutMilliseconds: timeout.timeoutMilliseconds)
        }
    }
}
