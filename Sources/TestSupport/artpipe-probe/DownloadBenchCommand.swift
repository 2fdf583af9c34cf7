import ArgumentParser
import ArtpipeSupport
import AsyncHTTPClient
import Foundation
import NIOCore

/// The CPU time of receiving image bodies over HTTP, apart from everything else the thumb
/// worker does: how much of the worker's CPU the downloads take, and whether reading bodies
/// through AsyncHTTPClient's delegate API (each chunk copied on the event loop) would save
/// any against its async body sequence (each chunk handed to a task), which the worker uses.
struct DownloadBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download-bench",
        abstract: "Download COUNT bodies, CONCURRENCY at a time, and print the process's CPU time for them.")

    enum Reader: String, ExpressibleByArgument {
        /// `HTTPClientResponse.body`, read into one array sized by `Content-Length`, as `HTTPFetcher` does.
        case sequence
        /// An `HTTPClientResponseDelegate` that appends each chunk on the event loop.
        case delegate
    }

    @Option(help: "A URL with one %d (or %03d) for the body's number, from 0.") var urlPattern: String
    @Option var count: Int = 40
    @Option var concurrency: Int = 2
    @Option(help: "sequence or delegate.") var reader: Reader = .sequence

    func run() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let urls = (0..<count).map { String(format: urlPattern, $0) }
        let cpuBefore = Self.processCPUSeconds()
        let start = ContinuousClock.now
        let reader = self.reader
        let bytes = try await urls.concurrentMap(limit: concurrency) { url in
            try await Self.download(url, reader: reader, client: client)
        }
        let cpu = Self.processCPUSeconds() - cpuBefore
        let wall = ContinuousClock.now - start
        try await client.shutdown()
        print(
            "\(reader.rawValue): \(urls.count) bodies, \(bytes.reduce(0, +)) bytes, CPU \(String(format: "%.3f", cpu)) s, "
                + "wall \(String(format: "%.3f", wall.seconds)) s")
    }

    static func download(_ url: String, reader: Reader, client: HTTPClient) async throws -> Int {
        switch reader {
        case .sequence:
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
            var bytes: [UInt8] = []
            bytes.reserveCapacity(response.headers.first(name: "Content-Length").flatMap(Int.init) ?? 0)
            for try await chunk in response.body { bytes.append(contentsOf: chunk.readableBytesView) }
            return bytes.count
        case .delegate:
            let task = client.execute(request: try HTTPClient.Request(url: url), delegate: BodyCollector())
            return try await task.futureResult.get().count
        }
    }

    /// User and system time of this process so far.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
        let microseconds = usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
        return Double(seconds) + Double(microseconds) / 1_000_000
    }
}
