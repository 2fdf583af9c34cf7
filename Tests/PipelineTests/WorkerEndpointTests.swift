import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import KafkaTestKit
import PipelineContract
import PipelineOperations
import SampleCollection
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A worker's `--http-port` and its `metrics` lines, read the way an operator's tools read them.
@Suite("Worker health and metrics endpoints", .serialized, .timeLimit(.minutes(3)))
struct WorkerEndpointTests {
    static let lineFields = [
        "worker", "consumed", "produced", "succeeded", "retried", "dead_lettered", "in_flight", "consumer_lag",
        "consumer_lag_partitions", "handler_latency_ms", "interval_s",
    ]

    @Test("/healthz, /readyz and /metrics over HTTP, with per-partition lag that falls as pages are handled")
    func endpointsAndLag() async throws {
        var faults = SampleServerFaults()
        // Slow images keep the lag visible for a few statistics intervals.
        faults.latency = .milliseconds(400)
        var settings = SampleCollection.Configuration()
        settings.pages = 1
        settings.pageSize = 40
        settings.noImageRate = 0
        settings.brokenImageRate = 0
        let sample = try await SampleServerHandle.start(settings, faults: faults)
        let cluster = try TestCluster()
        for topic in [ArtpipeTopic.pages, ArtpipeTopic.thumbnails, ArtpipeTopic.deadLetters] + ArtpipeTopic.pageRetries
        {
            try cluster.broker.createTopic(topic, partitions: 1)
        }
        // One page per work, so the partition's lag counts works still to do.
        let pages = sample.collection.works.prefix(12).enumerated().map { index, work in
            let request = PageRequest(
                crawlId: "endpoints", source: "rijksmuseum", query: ["s": "artist"], page: index + 1, pageSize: 1)
            return Page(
                request: request, total: 12,
                artworks: [
                    Artwork(
                        objectNumber: work.objectNumber, title: work.title, artist: work.maker,
                        imageURL: "\(sample.baseURL)/images/\(work.id).jpg", width: nil, height: nil, position: 0)
                ])
        }
        try await cluster.producer.send(pages.map { try MessageCodec.record($0, topic: ArtpipeTopic.pages) })
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("endpoints"))
        let worker = try ChildProcess(
            "artpipe",
            [
                "thumb-worker", "--brokers", cluster.brokers, "--out", output.path, "--allow-host", "127.0.0.1",
                "--allow-private-hosts", "--http-port", "0", "--http-host", "127.0.0.1", "--metrics-interval", "1",
                "--concurrency", "1", "--image-concurrency", "1",
            ] + EmbeddedBrokerSettings.flags)
        defer {
            worker.stop()
            Task {
                await cluster.shutdown()
                await sample.stop()
            }
        }
        let port = try await Self.httpPort(of: worker)
        let base = "http://127.0.0.1:\(port)"
        #expect(try await Self.get("\(base)/healthz").status == 200)
        try await waitUntil("/readyz to say ready", timeout: .seconds(30)) {
            try await Self.get("\(base)/readyz").status == 200
        }
        var lags: [Int] = []
        do {
            // Twelve slow images, one at a time, on a machine the other suites keep busy.
            try await waitUntil("/metrics to show the partition's lag falling to 0", timeout: .seconds(120)) {
                let metrics = try await Self.get("\(base)/metrics").body
                if let lag = Self.partitionLag(metrics) { lags.append(lag) }
                return lags.last == 0 && lags.contains { $0 > 0 }
            }
        } catch {
            // Whether the lag never showed, or never fell: different causes.
            Issue.record("lags seen, oldest first: \(lags.suffix(40))\nworker: \(worker.stdout.suffix(2_000))")
            throw error
        }
        let metrics = try await Self.get("\(base)/metrics").body
        // Named as Prometheus expects: counters end in _total, durations are _seconds histograms.
        #expect(metrics.contains("artpipe_consumed_total{worker=\"thumb\"} 12"), "\(metrics)")
        #expect(metrics.contains("# TYPE artpipe_consumed_total counter"), "\(metrics)")
        #expect(metrics.contains("# TYPE artpipe_handler_latency_seconds histogram"), "\(metrics)")
        #expect(
            metrics.contains("artpipe_handler_latency_seconds_bucket{worker=\"thumb\",le=\"600.0\"} 12"), "\(metrics)")
        #expect(metrics.contains("\nartpipe_partition_stalled 0"), "\(metrics)")
        #expect(try await Self.get("\(base)/nowhere").status == 404)
        // What `artpipe status --workers` prints of it, and of an address where nothing listens.
        let reports = await WorkerHealthReport.read([base, "http://127.0.0.1:9"], timeout: .seconds(5))
        #expect(reports.map(\.healthy) == [true, false] && reports.map(\.ready) == [true, false], "\(reports)")
        #expect(reports[0].line.contains("\tready: ready joined=true partitions=4 "), "\(reports[0].line)")
        #expect(reports[0].line.hasSuffix(" held=0"), "\(reports[0].line)")
        #expect(reports[1].line.contains("\tUNHEALTHY: no answer"), "\(reports[1].line)")

        // The same lag, and every documented field, in the logged metrics lines.
        var loggedLags: [Int] = []
        try await waitUntil("a metrics line with lag 0 after one with lag above 0", timeout: .seconds(30)) {
            loggedLags = Self.lines(worker.stdout).filter { $0["msg"] as? String == "metrics" }.compactMap {
                ($0["consumer_lag_partitions"] as? [String: Any])?["\(ArtpipeTopic.pages)/0"] as? Int
            }
            return loggedLags.contains { $0 > 0 } && loggedLags.last == 0
        }
        let metricLines = Self.lines(worker.stdout).filter { $0["msg"] as? String == "metrics" }
        for line in metricLines {
            let missing = Self.lineFields.filter { line[$0] == nil }
            #expect(missing.isEmpty, "metrics line lacks \(missing): \(line)")
        }
        worker.signal(SIGTERM)
        #expect(try await worker.waitForExit(timeout: .seconds(40)) == 0)
        // A clean stop is not an error: the HTTP server shuts down with the worker, not cancelled.
        let errors = Self.lines(worker.stdout).filter { $0["level"] as? String == "error" }
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test(
        "a partition with work waiting that finishes nothing for --progress-timeout shows on /metrics; /healthz stays up, so no restart loop follows"
    )
    func stalledPartition() async throws {
        var faults = SampleServerFaults()
        // An image host that takes far longer than the progress timeout to answer.
        faults.latency = .seconds(40)
        var settings = SampleCollection.Configuration()
        settings.pages = 1
        settings.pageSize = 2
        settings.noImageRate = 0
        let sample = try await SampleServerHandle.start(settings, faults: faults)
        let cluster = try TestCluster()
        for topic in [ArtpipeTopic.pages, ArtpipeTopic.thumbnails, ArtpipeTopic.deadLetters] + ArtpipeTopic.pageRetries
        {
            try cluster.broker.createTopic(topic, partitions: 1)
        }
        let work = try #require(sample.collection.works.first)
        let page = Page(
            request: PageRequest(crawlId: "stall", source: "rijksmuseum", query: [:], page: 1, pageSize: 1), total: 1,
            artworks: [
                Artwork(
                    objectNumber: work.objectNumber, title: work.title, artist: work.maker,
                    imageURL: "\(sample.baseURL)/images/\(work.id).jpg", width: nil, height: nil, position: 0)
            ])
        try await cluster.producer.send([try MessageCodec.record(page, topic: ArtpipeTopic.pages)])
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("stall"))
        let worker = try ChildProcess(
            "artpipe",
            [
                "thumb-worker", "--brokers", cluster.brokers, "--out", output.path, "--allow-host", "127.0.0.1",
                "--allow-private-hosts", "--http-port", "0", "--http-host", "127.0.0.1", "--progress-timeout", "2",
                "--drain-timeout", "1",
            ] + EmbeddedBrokerSettings.flags)
        defer {
            worker.signal(SIGKILL)
            Task {
                await cluster.shutdown()
                await sample.stop()
            }
        }
        let port = try await Self.httpPort(of: worker)
        var metrics = ""
        try await waitUntil("/metrics to show the stuck partition", timeout: .seconds(30)) {
            metrics = try await Self.get("http://127.0.0.1:\(port)/metrics").body
            return metrics.contains("\nartpipe_partition_stalled 1")
        }
        let stall = metrics.split(separator: "\n").first { $0.hasPrefix("artpipe_partition_stall_seconds ") }
        #expect(stall.flatMap { Double($0.split(separator: " ")[1]) }.map { $0 >= 2 } == true, "\(metrics)")
        #expect(try await Self.get("http://127.0.0.1:\(port)/healthz").status == 200, "alive, though slow")
    }

    /// The port a worker started with `--http-port 0` logged.
    static func httpPort(of worker: ChildProcess) async throws -> Int {
        var port = 0
        try await waitUntil("the worker to log its HTTP port", timeout: .seconds(30)) {
            port =
                lines(worker.stdout).first { $0["msg"] as? String == "http endpoints listening" }
                .flatMap { Int($0["http.port"] as? String ?? "") } ?? 0
            return port > 0
        }
        return port
    }

    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The value of `artpipe_consumer_partition_lag` for artpipe.pages partition 0.
    static func partitionLag(_ metrics: String) -> Int? {
        let prefix = "artpipe_consumer_partition_lag{"
        for line in metrics.split(separator: "\n") where line.hasPrefix(prefix) && line.contains("partition=\"0\"") {
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return Int(value) }
        }
        return nil
    }

    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}
