import CoreMetrics
import Prometheus

/// swift-metrics into Prometheus under the names Prometheus expects: `artpipe_<label>`, counters
/// ending in `_total`, timers as `_seconds` histograms with buckets up to the slowest page (a
/// page of forty images, or one retried in place, takes minutes, not swift-prometheus' 10 s).
/// The logged `metrics` lines keep the plain labels.
struct PrometheusNamingFactory: MetricsFactory {
    private let prometheus: PrometheusMetricsFactory

    static let durationBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60), .seconds(120), .seconds(300), .seconds(600),
    ]

    init(registry: PrometheusCollectorRegistry) {
        var prometheus = PrometheusMetricsFactory(registry: registry)
        prometheus.nameAndLabelSanitizer = { name, labels in ("artpipe_" + name, labels) }
        prometheus.defaultDurationHistogramBuckets = Self.durationBuckets
        self.prometheus = prometheus
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        prometheus.makeCounter(label: label + "_total", dimensions: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        prometheus.makeFloatingPointCounter(label: label + "_total", dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        prometheus.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        prometheus.makeMeter(label: label, dimensions: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        prometheus.makeTimer(label: label + "_seconds", dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) { prometheus.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        prometheus.destroyFloatingPointCounter(handler)
    }
    func destroyRecorder(_ handler: any RecorderHandler) { prometheus.destroyRecorder(handler) }
    func destroyMeter(_ handler: any MeterHandler) { prometheus.destroyMeter(handler) }
    func destroyTimer(_ handler: any TimerHandler) { prometheus.destroyTimer(handler) }
}
