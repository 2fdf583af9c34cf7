import ArtpipeRuntime
import CoreMetrics
import Metrics
import Prometheus

/// swift-metrics for a worker: every metric goes to the logged `metrics` lines and to a
/// Prometheus registry that `/metrics` serves, named `artpipe_<label>`.
public enum WorkerMetricsBootstrap {
    /// Bootstraps swift-metrics; once per process.
    public static func bootstrap() -> (logged: LoggedMetricsFactory, prometheus: PrometheusCollectorRegistry) {
        let logged = LoggedMetricsFactory()
        let registry = PrometheusCollectorRegistry()
        var prometheus = PrometheusMetricsFactory(registry: registry)
        prometheus.nameAndLabelSanitizer = { name, labels in ("artpipe_" + name, labels) }
        MetricsSystem.bootstrap(MultiplexMetricsHandler(factories: [logged, prometheus]))
        return (logged, registry)
    }
}
