import Dispatch
import Foundation
import KafkaClient

extension WorkerRuntime {
    /// Messages of one partition handled, their outputs not sent yet. While a run is open the
    /// runtime holds the partition's claim and a place in the concurrency limit.
    private struct Run {
        var messages: [(message: KafkaConsumerMessage, start: UInt64)] = []
        var outputs: [KafkaProducerRecord] = []
        var bytes = 0

        var isEmpty: Bool { messages.isEmpty }
        /// Big enough that a partition behind (a rebuild) writes few, large batches: a broker
        /// that reads its log by batch (Tansu) pays per batch on every fetch; small enough that
        /// a revoke waiting on it (and the broker's request limits) are not strained.
        var isFull: Bool { messages.count >= 10_000 || outputs.count >= 20_000 || bytes >= 16 << 20 }

        mutating func add(_ message: KafkaConsumerMessage, start: UInt64, outputs more: [KafkaProducerRecord]) {
            messages.append((message, start))
            outputs += more
            bytes += more.reduce(0) { $0 + $1.value.count + ($1.key?.count ?? 0) }
        }
    }

    /// ``process(_:)`` for a handler that ``MessageHandler/sendsInRuns``: the batch's messages
    /// are handled in order, their outputs sent in runs, and each run's last offset finished
    /// once all of the run is acknowledged. A message whose handling throws ends the run before
    /// it and then takes the one-at-a-time path, which classifies its failure (handling is
    /// idempotent, so doing it again is safe).
    func processInRuns(_ batch: KafkaMessageBatch) async {
        let lease = batch.lease
        var run = Run()
        for message in batch.messages {
            if !run.isEmpty, handler.holds(message) || !lease.isActive {
                let sent = await send(&run, lease: lease)
                limit.release()
                guard sent, lease.isActive else { return }
            }
            guard await waitWhileHeld(message, lease: lease) else { continue }
            if run.isEmpty {
                await limit.acquire()
                guard lease.beginHandling() else {
                    limit.release()
                    continue
                }
            }
            metrics.consumed.increment()
            inFlight.add(1, ordering: .relaxed)
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let input = try handler.decode(message)
                let context = MessageContext(
                    message: message, attempt: 1, lease: lease, retrySchedule: nil, logger: logger)
                run.add(message, start: start, outputs: try await handler.handle(input, context: context))
            } catch {
                inFlight.subtract(1, ordering: .relaxed)
                if !run.isEmpty {
                    guard await send(&run, lease: lease), lease.beginHandling() else {
                        limit.release()
                        return
                    }
                }
                let outcome = await handle(message, lease: lease)
                limit.release()
                guard case .commit = outcome else {
                    lease.abandonHandling()
                    return
                }
                finishHandling(message, lease: lease)
                continue
            }
            if run.isFull {
                let sent = await send(&run, lease: lease)
                limit.release()
                guard sent else { return }
            }
        }
        if !run.isEmpty {
            _ = await send(&run, lease: lease)
            limit.release()
        }
    }

    /// Sends the run's outputs and ends its claim: once they are acknowledged its last offset is
    /// finished; when they cannot be sent the lease is abandoned (Kafka delivers the run again)
    /// and false returned. When one output can never be produced, the run's messages are
    /// handled again one at a time, so only the message it came from is dead-lettered.
    private func send(_ run: inout Run, lease: KafkaPartitionLease) async -> Bool {
        defer { run = Run() }
        guard let last = run.messages.last?.message else { return true }
        let sending = DispatchTime.now().uptimeNanoseconds
        let result = await produce(run.outputs, for: last, lease: lease)
        // Where a run's time goes (its messages handled, then its outputs acknowledged), at
        // debug level: what a stage's share of a new page's path is made of.
        if logger.logLevel <= .debug, let first = run.messages.first {
            // How long the first message waited, from its broker timestamp to its handling.
            let now = DispatchTime.now().uptimeNanoseconds
            let waited = first.message.timestampMilliseconds.map {
                Int64(Date().timeIntervalSince1970 * 1_000) - Int64((now - first.start) / 1_000_000) - $0
            }
            logger.describing(last).debug(
                "run sent",
                metadata: [
                    "messages": "\(run.messages.count)", "outputs": "\(run.outputs.count)",
                    "handled_ms": "\((sending - first.start) / 1_000_000)",
                    "sent_ms": "\((now - sending) / 1_000_000)",
                    "waited_ms": "\(waited.map(String.init) ?? "unknown")",
                ])
        }
        inFlight.subtract(run.messages.count, ordering: .relaxed)
        let acknowledged = if case .acknowledged = result { true } else { false }
        for (message, start) in run.messages {
            await handler.outputsSettled(of: message, acknowledged: acknowledged)
            guard acknowledged else { continue }
            metrics.succeeded.increment()
            metrics.handlerLatency.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
        }
        switch result {
        case .acknowledged:
            finishHandling(last, lease: lease)
            return true
        case .unsent:
            lease.abandonHandling()
            return false
        case .refused:
            for (message, _) in run.messages {
                guard case .commit = await handle(message, lease: lease) else {
                    lease.abandonHandling()
                    return false
                }
            }
            finishHandling(last, lease: lease)
            return true
        }
    }
}
