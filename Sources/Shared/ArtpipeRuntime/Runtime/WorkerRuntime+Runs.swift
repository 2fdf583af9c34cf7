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

    /// A message taken, waiting to be handled together with the ones before it.
    private struct Waiting {
        /// Its place in the batch.
        var index: Int
        var message: KafkaConsumerMessage
        var start: UInt64
        /// Nil: it cannot be decoded, and is handled alone after the ones before it.
        var input: Handler.Input?
    }

    /// What became of the messages waiting, handled together.
    private enum Handled {
        /// All of them are in the run.
        case all
        /// One threw and was handled alone (its failure classified, the run before it sent):
        /// the batch goes on from `index`, the message after it.
        case goOn(at: Int)
        /// The batch ends: the lease ended, or outputs could not be sent.
        case stop
    }

    /// ``process(_:)`` for a handler that ``MessageHandler/sendsInRuns``: the batch's messages
    /// are handled in order, up to ``MessageHandler/handledTogether`` at a time, their outputs
    /// sent in runs, and each run's last offset finished once all of the run is acknowledged. A
    /// message whose handling throws ends the run before it and then takes the one-at-a-time
    /// path, which classifies its failure (handling is idempotent, so doing it again is safe);
    /// the messages after it are handled again from there.
    func processInRuns(_ batch: KafkaMessageBatch) async {
        let lease = batch.lease
        let messages = batch.messages
        let together = max(handler.handledTogether, 1)
        var run = Run()
        var waiting: [Waiting] = []
        var index = messages.startIndex
        while index < messages.endIndex || !waiting.isEmpty {
            let next = index < messages.endIndex ? messages[index] : nil
            let joins = next.map { !handler.holds($0) && lease.isActive } ?? false
            // The waiting messages are handled before one that cannot join them, once enough wait,
            // or once one cannot be decoded.
            if !waiting.isEmpty, !joins || waiting.count >= together || waiting.last?.input == nil {
                switch await handleWaiting(&waiting, into: &run, lease: lease) {
                case .all: break
                case .goOn(let at):
                    index = at
                    continue
                case .stop: return
                }
                if run.isFull {
                    let sent = await send(&run, lease: lease)
                    limit.release()
                    guard sent else { return }
                }
                continue
            }
            guard let message = next else { break }
            if !run.isEmpty, !joins {
                let sent = await send(&run, lease: lease)
                limit.release()
                guard sent, lease.isActive else { return }
            }
            index += 1
            guard await waitWhileHeld(message, lease: lease) else { continue }
            if run.isEmpty, waiting.isEmpty {
                await limit.acquire()
                guard lease.beginHandling() else {
                    limit.release()
                    continue
                }
            }
            inFlight.add(1, ordering: .relaxed)
            waiting.append(
                Waiting(
                    index: index - 1, message: message, start: DispatchTime.now().uptimeNanoseconds,
                    input: try? handler.decode(message)))
        }
        if !run.isEmpty {
            _ = await send(&run, lease: lease)
            limit.release()
        }
    }

    /// Hands the waiting messages to the handler together, up to the first that cannot be
    /// decoded, and adds them to the run. Where one cannot be decoded or its handling threw (or
    /// the handler returned fewer outputs than messages), that message is handled alone
    /// (``handleAlone(_:after:lease:)``), which classifies its failure, and the ones after it
    /// are left to be taken again.
    private func handleWaiting(_ waiting: inout [Waiting], into run: inout Run, lease: KafkaPartitionLease) async
        -> Handled
    {
        guard !waiting.isEmpty else { return .all }
        let items = waiting
        waiting = []
        let decoded = items.prefix { $0.input != nil }.compactMap { item in
            item.input.map {
                (
                    $0,
                    MessageContext(message: item.message, attempt: 1, lease: lease, retrySchedule: nil, logger: logger)
                )
            }
        }
        let handled = decoded.isEmpty ? HandledTogether() : await handler.handle(together: decoded)
        let count = min(handled.outputs.count, decoded.count)
        for (item, outputs) in zip(items, handled.outputs) {
            run.add(item.message, start: item.start, outputs: outputs)
        }
        metrics.consumed.increment(by: count)
        guard count < items.count else { return .all }
        // The one that threw, and those after it, are not in the run.
        inFlight.subtract(items.count - count, ordering: .relaxed)
        metrics.consumed.increment()
        let failed = items[count]
        return await handleAlone(failed.message, after: &run, lease: lease) ? .goOn(at: failed.index + 1) : .stop
    }

    /// The one-at-a-time path of a message whose handling in a run threw: the run before it is
    /// sent, then the message handled alone, which classifies its failure. Ends the run's claim
    /// and its place in the limit. Returns whether the batch goes on (false: the lease ended,
    /// or outputs could not be sent).
    private func handleAlone(_ message: KafkaConsumerMessage, after run: inout Run, lease: KafkaPartitionLease)
        async -> Bool
    {
        if !run.isEmpty {
            guard await send(&run, lease: lease), lease.beginHandling() else {
                limit.release()
                return false
            }
        }
        let outcome = await handle(message, lease: lease)
        limit.release()
        guard case .commit = outcome else {
            lease.abandonHandling()
            return false
        }
        finishHandling(message, lease: lease)
        return true
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
