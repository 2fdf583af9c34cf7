import ArtpipeRuntime
import CoreMetrics
import Metrics
import Prometheus

/// swift-metrics for a worker: every metric goes to the logged `metrics` lines and to a
/// Prometheus registry that `/metrics` serves, named as ``PrometheusNamingFactory`` says.
package enum WorkerMetricsBootstrap {
    /// Bootstraps swift-metrics; once per process.
    package static func bootstrap() -> (logged: LoggedMetricsFactory, prometheus: PrometheusCollectorRegistry) {
        let logged = LoggedMetricsFactory()
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(
            MultiplexMetricsHandler(factories: [logged, PrometheusNamingFactory(registry: registry)]))
        return (logged, registry)
    }
}
