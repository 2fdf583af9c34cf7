import ArgumentParser
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import Logging
import NIOPosix
import SampleCollection
import ServiceLifecycle

/// `artpipe sample-server`: the local stand-in for the museum's legacy API.
struct SampleServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-server",
        abstract: "Serve a generated sample collection over the legacy collection API, with its images.",
        discussion: """
            The collection is fixed by --seed, --pages and --page-size. Crawl it with
            artpipe crawl --source rijksmuseum --base-url http://HOST:PORT --query s=artist --page-size N.
            Prints "listening: http://HOST:PORT" and runs until SIGINT or SIGTERM.
            """)

    @Option(help: "Port to listen on (0: any free port).")
    var port: Int = 8090

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @OptionGroup var collection: SampleCollectionOptions

    @Option(help: "Milliseconds added before every answer.")
    var latencyMs: Int = 0

    @Option(
        help:
            "The collection's revision OAI-PMH serves: each one changes about 5% of works and deletes about 1%, a day later each."
    )
    var revision: Int = 0

    @Option(help: "Each collection page first answers this many times with 503 / 429 (Retry-After: 1).")
    var failFirst: Int = 0

    @Option(help: "Collection pages that always answer 500, comma-separated.")
    var failingPages: String = ""

    @Option(help: "Each image first answers this many times with 503.")
    var imageFailFirst: Int = 0

    @Option(help: "Also write the bound port to this file (written whole, then renamed into place).")
    var portFile: String?

    @Option(help: "Log level.")
    var logLevel: String = "info"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0–65535") }
        guard latencyMs >= 0, failFirst >= 0, imageFailFirst >= 0 else {
            throw ValidationError("--latency-ms, --fail-first and --image-fail-first must not be negative")
        }
        guard parsedFailingPages != nil else {
            throw ValidationError("--failing-pages must be page numbers separated by commas, got '\(failingPages)'")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level '\(logLevel)' is not a log level")
        }
    }

    var parsedFailingPages: Set<Int>? {
        var result = Set<Int>()
        for part in failingPages.split(separator: ",") {
            guard let page = Int(part.trimmingCharacters(in: .whitespaces)), page >= 1 else { return nil }
            result.insert(page)
        }
        return result
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: Logger.Level(rawValue: logLevel) ?? .info)
        let logger = Logger(label: "artpipe.sample-server")
        var faults = SampleServerFaults()
        faults.latency = .milliseconds(latencyMs)
        faults.failFirst = failFirst
        faults.failingPages = parsedFailingPages ?? []
        faults.imageFailFirst = imageFailFirst
        let collection = SampleCollection(self.collection.configuration)
        try await NIOThreadPool.withPool(threads: ProcessInfo.processInfo.activeProcessorCount) { threadPool in
            try await serve(collection, faults: faults, threadPool: threadPool, logger: logger)
        }
    }

    private func serve(
        _ collection: SampleCollection, faults: SampleServerFaults, threadPool: NIOThreadPool, logger: Logger
    ) async throws {
        let server = SampleCollectionServer(
            collection: collection, faults: faults, threadPool: threadPool, revision: revision)
        let host = host
        let portFile = portFile
        let service = SampleServerService(server: server, host: host, port: port, logger: logger) { bound in
            FileHandle.standardOutput.write(Data("listening: http://\(host):\(bound)\n".utf8))
            if let portFile {
                // Whoever waits for the file would wait for good: say so.
                do {
                    _ = try AtomicFile.write(Data(String(bound).utf8), to: URL(fileURLWithPath: portFile))
                } catch {
                    logger.error("cannot write the port file", metadata: ["path": "\(portFile)", "reason": "\(error)"])
                }
            }
            logger.info(
                "sample collection served",
                metadata: [
                    "http.port": "\(bound)", "sample.works": "\(collection.works.count)",
                    "sample.pages": "\(collection.pages.count)", "sample.seed": "\(collection.configuration.seed)",
                ])
        }
        let group = ServiceGroup(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }
}

/// Runs the sample server until graceful shutdown, which it follows: open connections finish.
struct SampleServerService: Service {
    let server: SampleCollectionServer
    let host: String
    let port: Int
    let logger: Logger
    let onListening: @Sendable (Int) -> Void

    func run() async throws {
        // Hummingbird shuts down gracefully with the group; cancelling it logged two errors.
        try await server.run(host: host, port: port, logger: logger, onListening: onListening)
    }
}
