import ArtpipeCommandLine
import KafkaClient
import Logging
import Prometheus
import ServiceLifecycle
import WorkerEndpoints

extension WorkerOptions {
    /// The HTTP endpoint service when `--http-port` is given, for ``WorkerLauncher`` companions.
    /// `problem` fails `/healthz` with its reason while it returns one.
    func endpointServices(
        registry: PrometheusCollectorRegistry, problem: @escaping @Sendable () -> String? = { nil }, logger: Logger
    ) -> @Sendable ([KafkaConsumer]) -> [any Service] {
        let (host, port, drain, progress) = (httpHost, httpPort, drainTimeout, progressTimeout)
        return { consumers in
            guard let port else { return [] }
            return [
                WorkerEndpointServer(
                    host: host, port: port, consumers: consumers, registry: registry,
                    stallLimit: .milliseconds(Int64((drain + 30) * 1_000)),
                    progressLimit: .seconds(fromFlag: progress), problem: problem, logger: logger)
            ]
        }
    }
}
