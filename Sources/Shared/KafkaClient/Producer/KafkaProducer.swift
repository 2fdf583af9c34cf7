import CKafka
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

    package init(configuration: KafkaClientConfiguration, logger: Logger) throws {
        let properties = configuration.clientProperties(defaults: [
            ("enable.idempotence", "true"),
            ("linger.ms", "5"),
            ("queue.buffering.max.messages", "500000"),
            ("reconnect.backoff.max.ms", "1000"),
        ])
        let callbacks = RDKafkaCallbacks(logger: logger)
        callbacks.deliveryReports = true
        self.client = try RDKafkaClient(type: RD_KAFKA_PRODUCER, properties: properties, callbacks: callbacks)
        self.configuration = configuration
        self.logger = logger
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
            rd_kafka_poll(client.handle, 100)
        }
        let timeout = flushTimeout.withLock { $0 }
        let error = rd_kafka_flush(client.handle, Int32(timeout.milliseconds))
        if error != RD_KAFKA_RESP_ERR_NO_ERROR {
            logger.error(
                "producer shut down with undelivered records",
                metadata: ["kafka.queued": "\(rd_kafka_outq_len(client.handle))"])
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
        let result = rd_kafka_test_fatal_error(client.handle, RD_KAFKA_RESP_ERR_OUT_OF_ORDER_SEQUENCE_NUMBER, reason)
        return result == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError("test fatal error", rdError: result)
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
        var reason = [CChar](repeating: 0, count: 512)
        let code = rd_kafka_fatal_error(client.handle, &reason, reason.count)
        guard code != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return KafkaError("fatal producer error: \(text)", code: RD_KAFKA_RESP_ERR__FATAL.rawValue)
    }

    private func enqueue(_ record: KafkaProducerRecord, waiter: DeliveryWaiter) async throws {
        while true {
            let opaque = Unmanaged.passRetained(waiter).toOpaque()
            let error = produce(record, opaque: opaque)
            if error == RD_KAFKA_RESP_ERR_NO_ERROR { return }
            Unmanaged<DeliveryWaiter>.fromOpaque(opaque).release()
            guard error == RD_KAFKA_RESP_ERR__QUEUE_FULL, !stopRequested.load(ordering: .relaxed) else {
                throw KafkaError("cannot produce to \(record.topic)", rdError: error)
            }
            // The local queue is full: give the delivery thread time to drain it.
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func produce(_ record: KafkaProducerRecord, opaque: UnsafeMutableRawPointer) -> rd_kafka_resp_err_t {
        let headers: OpaquePointer? = record.headers.isEmpty ? nil : rd_kafka_headers_new(record.headers.count)
        for header in record.headers {
            if let value = header.value {
                _ = value.withUnsafeBytes { rd_kafka_header_add(headers, header.name, -1, $0.baseAddress, $0.count) }
            } else {
                _ = rd_kafka_header_add(headers, header.name, -1, nil, 0)
            }
        }
        let error: OpaquePointer? = record.topic.withCString { topic in
            record.value.withUnsafeBytes { value in
                withKeyBytes(record.key) { key in
                    var fields: [rd_kafka_vu_t] = []
                    fields.reserveCapacity(6)
                    var field = rd_kafka_vu_t()
                    field.vtype = RD_KAFKA_VTYPE_TOPIC
                    field.u.cstr = topic
                    fields.append(field)
                    field = rd_kafka_vu_t()
                    field.vtype = RD_KAFKA_VTYPE_VALUE
                    field.u.mem.ptr = UnsafeMutableRawPointer(mutating: value.baseAddress)
                    field.u.mem.size = value.count
                    fields.append(field)
                    if let key {
                        field = rd_kafka_vu_t()
                        field.vtype = RD_KAFKA_VTYPE_KEY
                        field.u.mem.ptr = UnsafeMutableRawPointer(mutating: key.baseAddress)
                        field.u.mem.size = key.count
                        fields.append(field)
                    }
                    if let partition = record.partition {
                        field = rd_kafka_vu_t()
                        field.vtype = RD_KAFKA_VTYPE_PARTITION
                        field.u.i32 = partition
                        fields.append(field)
                    }
                    field = rd_kafka_vu_t()
                    field.vtype = RD_KAFKA_VTYPE_MSGFLAGS
                    field.u.i = RD_KAFKA_MSG_F_COPY
                    fields.append(field)
                    field = rd_kafka_vu_t()
                    field.vtype = RD_KAFKA_VTYPE_OPAQUE
                    field.u.ptr = opaque
                    fields.append(field)
                    if let headers {
                        field = rd_kafka_vu_t()
                        field.vtype = RD_KAFKA_VTYPE_HEADERS
                        field.u.headers = headers
                        fields.append(field)
                    }
                    return rd_kafka_produceva(client.handle, fields, fields.count)
                }
            }
        }
        guard let error else { return RD_KAFKA_RESP_ERR_NO_ERROR }
        // On failure the headers stay ours to free.
        if let headers { rd_kafka_headers_destroy(headers) }
        let code = rd_kafka_error_code(error)
        rd_kafka_error_destroy(error)
        return code
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
            try client.metadata(timeoutMilliseconds: Int32(timeout.milliseconds))
        }
    }
}

private func withKeyBytes<R>(_ key: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
    guard let key else { return body(nil) }
    return key.withUnsafeBytes { body($0) }
}
