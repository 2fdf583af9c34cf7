import ArtpipeSupport
import Foundation
import HTTPTypes
import Hummingbird
import KafkaClient
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle

/// A worker's HTTP port: `/healthz` (the poll loops go round; partitions held are named, but a
/// restart would not make the broker answer, so they do not fail it), `/readyz` (joined its
/// groups, brokers connected, no partition held past ``KafkaConsumerHealth/heldLimit``),
/// `/metrics` (Prometheus text). Over every consumer of the process: the index worker has one a
/// stage.
///
/// A partition with work waiting that finishes nothing is not a liveness failure: a restart
/// would not make a slow image host faster, and a kill loop would follow. It shows in
/// `artpipe_partition_stalled` and `artpipe_partition_stall_seconds`, for an alert.
package struct WorkerEndpointServer: Service {
    /// How long the poll loop may stand still before `/healthz` fails. It polls every 100 ms;
    /// a rebalance callback draining in-flight work can hold it for the drain timeout.
    let stallLimit: Duration
    /// How long a partition with work waiting may go without finishing a message before it
    /// counts as stalled.
    let progressLimit: Duration
    let host: String
    let port: Int
    let consumers: [KafkaConsumer]
    let registry: PrometheusCollectorRegistry
    /// What makes this worker unhealthy that only it knows (the index's missing history); nil when nothing.
    let problem: @Sendable () -> String?
    let logger: Logger
    private let started = ContinuousClock.now

    package init(
        host: String, port: Int, consumers: [KafkaConsumer], registry: PrometheusCollectorRegistry,
        stallLimit: Duration,
        progressLimit: Duration = .seconds(900), problem: @escaping @Sendable () -> String? = { nil }, logger: Logger
    ) {
        self.problem = problem
        self.progressLimit = progressLimit
        self.host = host
        self.port = port
        self.consumers = consumers
        self.registry = registry
        self.stallLimit = stallLimit
        self.logger = logger
    }

    package func run() async throws {
        let lagGauges = PartitionLagGauges(registry: registry)
        let router = Router()
        let (problem, consumers, started) = (self.problem, self.consumers, self.started)
        router.get("/healthz") { _, _ in
            if let problem = problem() { return Self.text(.serviceUnavailable, problem) }
            let healths = consumers.map(\.health)
            // Before the first poll the worker is still starting: alive, not yet ready.
            let alive = healths.allSatisfy {
                $0.isPolling(within: stallLimit) || ($0.lastPoll == nil && .now - started < .seconds(120))
            }
            guard alive else { return Self.text(.serviceUnavailable, "the poll loop has stalled") }
            let notes = healths.compactMap { $0.heldNote() }
            return Self.text(.ok, (["ok"] + notes).joined(separator: "; "))
        }
        router.get("/readyz") { _, _ in
            let healths = consumers.map(\.health)
            let ready = healths.allSatisfy { $0.isReady() && $0.isPolling(within: stallLimit) }
            let brokersUp = healths.compactMap(\.brokersUp).min()
            let detail =
                "joined=\(healths.allSatisfy(\.joined)) partitions=\(healths.map(\.assignedPartitions).reduce(0, +)) "
                + "brokers_up=\(brokersUp.map(String.init) ?? "unknown") "
                + "held=\(healths.map { $0.held?.partitions ?? 0 }.reduce(0, +))"
            let notes = healths.compactMap { $0.heldNote() }.map { "; \($0)" }.joined()
            return Self.text(ready ? .ok : .serviceUnavailable, (ready ? "ready " : "not ready ") + detail + notes)
        }
        let stallSeconds = registry.makeGauge(
            name: "artpipe_partition_stall_seconds",
            help: "How long the longest-stuck partition with work waiting has finished nothing; 0 when none")
        let stalled = registry.makeGauge(
            name: "artpipe_partition_stalled",
            help: "1 when a partition with work waiting has finished nothing for --progress-timeout")
        let progressLimit = self.progressLimit
        router.get("/metrics") { _, _ in
            lagGauges.update(consumers.map(\.lag))
            let healths = consumers.map(\.health)
            let stalledSince = healths.compactMap(\.stalledSince).min()
            stallSeconds.set(stalledSince.map { (ContinuousClock.now - $0).seconds } ?? 0)
            stalled.set(Double(healths.allSatisfy { $0.isProgressing(within: progressLimit) } ? 0 : 1))
            var buffer: [UInt8] = []
            registry.emit(into: &buffer)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
        let logger = logger
        let application = Application(
            router: router, configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                logger.info(
                    "http endpoints listening",
                    metadata: ["http.host": "\(host)", "http.port": "\(channel.localAddress?.port ?? 0)"])
            }, logger: logger)
        try await application.runService(gracefulShutdownSignals: [])
    }

    private static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
