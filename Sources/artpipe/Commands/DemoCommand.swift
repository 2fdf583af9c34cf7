import ArgumentParser
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import IndexWorker
import Logging
import ObjectStorage
import SampleCollection
import Synchronization
import UnixSignals

/// `artpipe demo`: the whole pipeline on one machine, each role its own process.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the whole pipeline against a generated sample collection and report how it went.",
        discussion: """
            Starts the embedded broker, the sample server and the three workers as separate processes of this
            executable, crawls every page of the sample collection, shows progress, and exits 0 once every page is
            indexed and every thumbnail has its final status. Logs go to DIR/logs/.
            """)

    @Option(
        help: """
            Output directory (index.html, index.json, works/, gallery/, thumbs/, logs/), or s3://BUCKET[/PREFIX] for \
            the published files. Emptied first if an earlier demo made it.
            """)
    var out: String = "artpipe-demo"

    @Option(help: "With --out s3://…: the directory for logs and the index worker's state.")
    var workDir: String = "artpipe-demo"

    @Option(help: "With --out s3://…: the S3-compatible store's URL (default AWS_ENDPOINT_URL, else AWS).")
    var s3Endpoint: String?

    @Option(help: "With --out s3://…: the bucket's region (default AWS_REGION, else us-east-1).")
    var s3Region: String?

    @OptionGroup var collection: SampleCollectionOptions

    @Option(
        help: """
            The API to harvest the sample collection through: rijksmuseum-oai (OAI-PMH and EDM), rijksmuseum-search \
            (Search API and Linked Art), rijksmuseum (the legacy REST API), flickr (photo search, grouped by owner) \
            or itunes (the iTunes Search API, grouped by artist).
            """)
    var source: String = "rijksmuseum-oai"

    @Option(help: "Partitions of each topic.")
    var partitions: Int = 6

    @Option(help: "Instances of each worker (fetch, thumb, index).")
    var instances: Int = 1

    @Option(help: "Give up after this many seconds.")
    var timeout: Double = 1_800

    func validate() throws {
        guard partitions >= 1 else { throw ValidationError("--partitions must be at least 1") }
        guard (1...8).contains(instances) else { throw ValidationError("--instances must be 1–8") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        guard Self.sources.contains(source) else {
            throw ValidationError("--source must be one of \(Self.sources.joined(separator: ", ")), got '\(source)'")
        }
        let reach = SampleCollectionServer.flickrReach
        if source == "flickr", collection.pages * collection.pageSize > reach {
            throw ValidationError(
                "--source flickr: Flickr serves the first \(reach) results of a search; keep --pages × --page-size within it"
            )
        }
    }

    static let sources = ["rijksmuseum-oai", "rijksmuseum-search", "rijksmuseum", "flickr", "itunes"]

    /// Flags the crawl needs beyond the source: the legacy API's and Flickr's page size and
    /// sort, iTunes' search term, the stand-in's Flickr key.
    func crawlFlags(keyFile: String) -> [String] {
        switch source {
        case "rijksmuseum": ["--page-size", String(collection.pageSize), "--query", "s=artist"]
        case "flickr":
            ["--page-size", String(collection.pageSize), "--query", "text=painting", "--flickr-key-file", keyFile]
        case "itunes": ["--page-size", String(collection.pageSize), "--query", "term=sample"]
        default: []
        }
    }

    /// Pages the crawl will index: the legacy API's pages (Flickr's stand-in lists the same), or
    /// the Search API's, OAI-PMH's or iTunes' (distinct works only, OAI-PMH 200 a page).
    var expectedPages: Int {
        let size =
            switch source {
            case "rijksmuseum-search", "itunes": collection.pageSize
            case "rijksmuseum-oai": SampleCollectionServer.oaiPageSize
            default: 0
            }
        guard size > 0 else { return collection.pages }
        let works = SampleCollection(collection.configuration).works.count
        // iTunes pages by offset until a page comes back short: a full last page has an empty one after it.
        return source == "itunes" ? works / size + 1 : (works + size - 1) / size
    }

    func run() async throws {
        let location: OutputLocation
        do {
            location = try OutputLocation(out, endpoint: s3Endpoint, region: s3Region)
        } catch let error as ObjectStoreError {
            throw ConfigurationError("--out: \(error)")
        }
        let output = (location.folder ?? URL(fileURLWithPath: workDir)).standardizedFileURL
        try DemoDirectory.prepare(output)
        // The workers' flags for where they publish, and where the demo reads the index.
        var outFlags = ["--out", output.path]
        var published: any OutputStore = FolderOutputStore(directory: output)
        var stateFlags: [String] = []
        if location.folder == nil {
            let bucket: BucketOutputStore
            do {
                bucket = try await location.open(logger: Logger(label: "artpipe.demo")) as! BucketOutputStore
            } catch let error as ObjectStoreError {
                throw ConfigurationError("--out: \(error)")
            }
            published = bucket
            try await DemoBucket.prepare(bucket)
            outFlags =
                ["--out", out] + (s3Endpoint.map { ["--s3-endpoint", $0] } ?? [])
                + (s3Region.map { ["--s3-region", $0] } ?? [])
            stateFlags = ["--state", output.appendingPathComponent(".index-state").path]
        }
        let run = DemoRun(
            output: output, published: published, expectedPages: expectedPages,
            interactive: isatty(STDOUT_FILENO) == 1)
        let signals = await UnixSignalsSequence.shutdownSignals()
        let received = Mutex<UnixSignal?>(nil)
        let watcher = Task {
            for await signal in signals {
                received.withLock { $0 = $0 ?? signal }
            }
        }
        defer {
            watcher.cancel()
            run.stopAll()
        }
        do {
            let bootstrap = try await run.start(
                "broker", ["broker", "--partitions", String(partitions), "--bootstrap-file", run.file("bootstrap")],
                readyFile: "bootstrap")
            let port = try await run.start(
                "sample-server",
                [
                    "sample-server", "--port", "0", "--port-file", run.file("sample-port"),
                ] + collection.arguments, readyFile: "sample-port")
            let baseURL = "http://127.0.0.1:\(port)"
            // The stand-in takes any Flickr key; the workers read it from a file, as in production.
            let keyFile = run.file("flickr-key")
            try Data("sample-server-key\n".utf8).write(to: URL(fileURLWithPath: keyFile))
            let kafka = [
                "--brokers", bootstrap, "--kafka", "session.timeout.ms=6000", "--kafka", "heartbeat.interval.ms=500",
                "--metrics-interval", "5",
            ]
            for instance in 1...instances {
                let suffix = instances == 1 ? "" : "-\(instance)"
                try run.launch(
                    "fetch-worker\(suffix)",
                    ["fetch-worker", "--base-url", baseURL, "--flickr-key-file", keyFile] + kafka)
                try run.launch(
                    "thumb-worker\(suffix)",
                    ["thumb-worker", "--allow-host", "127.0.0.1", "--allow-private-hosts", "--formats", "jpeg,webp"]
                        + outFlags
                        + kafka)
                try run.launch(
                    "index-worker\(suffix)",
                    ["index-worker", "--write-interval", "0.5"] + outFlags + stateFlags + kafka)
            }
            run.say("pipeline started: broker \(bootstrap), sample collection \(baseURL), logs in \(output.path)/logs")
            try await run.crawl(
                [
                    "crawl", "--brokers", bootstrap, "--source", source, "--base-url", baseURL, "--pages", "all",
                    "--crawl-id", DemoRun.crawlId,
                ] + crawlFlags(keyFile: keyFile))
            let (manifest, index) = try await run.waitForCompletion(
                timeout: .seconds(fromFlag: timeout), stopSignal: { received.withLock { $0 } })
            let cpu = run.cpuSeconds()
            let memory = run.peakResidentBytes()
            let elapsed = run.elapsed
            await run.stopGracefully()
            var summary = DemoSummary(
                manifest: manifest, index: index, elapsed: elapsed, cpu: cpu, output: output,
                gallery: published.address(of: "index.html"))
            summary.memory = memory
            if let decoded = run.loggedCounters(["images_decoded", "image_bytes_decoded"], prefix: "thumb-worker") {
                summary.decoded = (decoded[0], decoded[1])
            }
            print(summary.text)
        } catch {
            await run.stopGracefully()
            throw error
        }
    }
}
