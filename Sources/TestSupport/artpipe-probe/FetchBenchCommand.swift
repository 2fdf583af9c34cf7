import ArgumentParser
import ArtpipeRuntime
import ArtpipeSupport
import FetchWorker
import Foundation
import HTTPFetching
import HTTPTestKit
import KafkaClient
import Logging
import PipelineContract

/// `artpipe-probe fetch-bench`: pages per second through FetchWorker's handler (HTTP, parse,
/// encode) against a loopback legacy API that answers after a fixed latency.
struct FetchBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch-bench", abstract: "Measure FetchWorker's page rate against a slow local API.")

    @Option(help: "Server latency per request, in milliseconds.")
    var latencyMs: Int = 50

    @Option(help: "Pages per measurement.")
    var pages: Int = 160

    @Option(help: "Concurrency levels to measure (pages fetched at once).")
    var concurrency: [Int] = [1, 4, 16]

    @Option(help: "The rate limit of the 'on' runs, in requests per second.")
    var rateLimit: Double = 20

    func validate() throws {
        guard pages >= 1, pages * 50 <= LegacyCollectionSource.reachableObjects else {
            throw ValidationError(
                "--pages must be 1–\(LegacyCollectionSource.reachableObjects / 50) (pages of 50 works)")
        }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .error)
        var logger = Logger(label: "artpipe.bench")
        logger.logLevel = .error
        let latency = Duration.milliseconds(latencyMs)
        let server = try await TestHTTPServer.start { request in
            var answer = LegacyCollectionServer.answer(request, total: 10_000)
            answer.delay = latency
            return answer
        }
        print("fetch-bench: \(pages) pages of 50 works per run, server latency \(latencyMs) ms, 127.0.0.1")
        for limit in [nil, rateLimit] {
            for level in concurrency {
                var configuration = HTTPFetcherConfiguration()
                configuration.concurrencyPerHost = level
                configuration.requestsPerSecond = limit
                let http = HTTPFetcher(
                    configuration: configuration, redaction: SecretRedaction(secrets: []), logger: logger)
                let source = LegacyCollectionSource(
                    baseURL: URL(string: server.baseURL)!, apiKey: LegacyCollectionServer.apiKey, imageEdge: 512,
                    http: http)
                let handler = PageFetchHandler(sources: [source], redaction: SecretRedaction(secrets: []), chains: nil)
                let start = ContinuousClock.now
                let produced = try await fetchAll(handler: handler, concurrency: level)
                let seconds = start.duration(to: .now).seconds
                let rate = Double(pages) / seconds
                let held = limit.map { rate <= $0 * 1.05 ? " (limit held)" : " (LIMIT EXCEEDED)" } ?? ""
                print(
                    "rate limit \(limit.map { "\(Int($0))/s" } ?? "off"), concurrency \(level): "
                        + "\(String(format: "%.1f", rate)) pages/s, \(produced) records\(held)")
                try await http.shutdown()
            }
        }
        await server.stop()
    }

    /// Runs the handler over `pages` page requests with `concurrency` in flight.
    private func fetchAll(handler: PageFetchHandler, concurrency: Int) async throws -> Int {
        let requests = (1...pages).map {
            PageRequest(crawlId: "bench", source: LegacyCollectionSource.sourceName, query: [:], page: $0, pageSize: 50)
        }
        let counts = try await requests.concurrentMap(limit: concurrency) { request in
            try await handler.outputs(for: request, logger: Logger(label: "bench")).count
        }
        return counts.reduce(0, +)
    }
}
