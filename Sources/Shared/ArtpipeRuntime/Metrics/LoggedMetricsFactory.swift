import CoreMetrics
import Synchronization

/// A swift-metrics backend that keeps values in memory for ``MetricsLogReporter`` to log.
///
/// Counters are totals since start; gauges hold their last value; timers keep a histogram
/// of the current interval, emptied at each report. Dimensions are not kept apart: one
/// process runs one worker.
package final class LoggedMetricsFactory: MetricsFactory, Sendable {
    private let counters = Mutex<[String: LoggedCounter]>([:])
    private let gauges = Mutex<[String: LoggedGauge]>([:])
    private let timers = Mutex<[String: LoggedTimer]>([:])

    package init() {}

    package func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        counters.withLock { $0.entry(label, LoggedCounter()) }
    }

    package func makeFloatingPointCounter(label: String, dimensions: [(String, String)])
        -> any FloatingPointCounterHandler
    {
        gauges.withLock { $0.entry(label, LoggedGauge()) }
    }

    package func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        gauges.withLock { $0.entry(label, LoggedGauge()) }
    }

    package func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        gauges.withLock { $0.entry(label, LoggedGauge()) }
    }

    package func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        timers.withLock { $0.entry(label, LoggedTimer()) }
    }

    package func destroyCounter(_ handler: any CounterHandler) {}
    package func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    package func destroyMeter(_ handler: any MeterHandler) {}
    package func destroyRecorder(_ handler: any RecorderHandler) {}
    package func destroyTimer(_ handler: any TimerHandler) {}

    /// The values now, by label; timer histograms restart.
    func snapshot() -> MetricsSnapshot {
        MetricsSnapshot(
            counters: counters.withLock { $0.mapValues(\.value) },
            gauges: gauges.withLock { $0.mapValues(\.value) },
            latencies: timers.withLock { $0.mapValues { $0.takeInterval() } })
    }
}

/// Metric values at one moment.
package struct MetricsSnapshot: Sendable {
    let counters: [String: Int64]
    let gauges: [String: Double]
    /// Percentiles of the last interval, in milliseconds.
    let latencies: [String: LatencySummary]
}

/// Percentiles of one timer over one interval.
package struct LatencySummary: Sendable {
    let count: Int
    let p50Milliseconds: Double
    let p95Milliseconds: Double
    let p99Milliseconds: Double
}

extension Dictionary {
    /// The value for `key`, inserting `make()` first when there is none: one handler per label.
    fileprivate mutating func entry(_ key: Key, _ make: @autoclosure () -> Value) -> Value {
        if let value = self[key] { return value }
        let value = make()
        self[key] = value
        return value
    }
}

final class LoggedCounter: CounterHandler, Sendable {
    private let total = Atomic<Int64>(0)
    func increment(by amount: Int64) { total.add(amount, ordering: .relaxed) }
    func reset() { total.store(0, ordering: .relaxed) }
    var value: Int64 { total.load(ordering: .relaxed) }
}

final class LoggedGauge: RecorderHandler, MeterHandler, FloatingPointCounterHandler, Sendable {
    private let bits = Atomic<UInt64>(0)
    func record(_ value: Int64) { record(Double(value)) }
    func record(_ value: Double) { bits.store(value.bitPattern, ordering: .relaxed) }
    func set(_ value: Int64) { record(value) }
    func set(_ value: Double) { record(value) }
    func increment(by amount: Double) { adjust(by: amount) }
    func reset() { record(0.0) }
    func decrement(by amount: Double) { adjust(by: -amount) }
    private func adjust(by amount: Double) {
        var current = bits.load(ordering: .relaxed)
        while true {
            let next = (Double(bitPattern: current) + amount).bitPattern
            let (exchanged, original) = bits.compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
    var value: Double { Double(bitPattern: bits.load(ordering: .relaxed)) }
}

final class LoggedTimer: TimerHandler, Sendable {
    private let histogram = Mutex(LatencyHistogram())
    func recordNanoseconds(_ duration: Int64) { histogram.withLock { $0.record(nanoseconds: duration) } }

    func takeInterval() -> LatencySummary {
        let interval = histogram.withLock { histogram in
            defer { histogram = LatencyHistogram() }
            return histogram
        }
        func milliseconds(_ q: Double) -> Double {
            Double(interval.percentile(q) ?? 0) / 1_000_000
        }
        return LatencySummary(
            count: interval.count, p50Milliseconds: milliseconds(0.5), p95Milliseconds: milliseconds(0.95),
            p99Milliseconds: milliseconds(0.99))
    }
}
