import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import IndexWorker
import KafkaClient
import KafkaTestKit
import PipelineContract
import SampleCollection
import Testing
import ThumbWorker

/// The whole pipeline: `artpipe` worker processes over TCP on an embedded broker, crawling the
/// sample server over loopback HTTP, with real JPEGs decoded by libvips.
@Suite("Pipeline end to end", .serialized, .timeLimit(.minutes(6)))
struct PipelineTests {
    @Test("a clean run indexes exactly the sample collection's works, grouped by maker, with the right thumbnails")
    func cleanRunMatchesGroundTruth() async throws {
        let reference = try await ReferenceRun.shared.get()
        let problems = GroundTruth.mismatches(
            reference.index, collection: reference.sample.collection, output: reference.output)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        let collection = reference.sample.collection
        #expect(reference.index.totals.works == collection.works.count)
        #expect(reference.index.totals.thumbnails["ok"] == collection.works.filter(\.hasGoodImage).count)
        #expect(reference.index.totals.thumbnails["failed", default: 0] > 0, "the sample has broken images")
        #expect(reference.index.totals.thumbnails["noImage", default: 0] > 0, "the sample has works without image")
        #expect(reference.index.artists.contains { $0.name == "anonymous" })
        #expect(
            reference.status.contains("pages: 6 requested, 6 fetched, 6 thumbnailed, 6 indexed, 0 failed"),
            "\(reference.status)")
        #expect(reference.status.contains("artpipe-thumb\tartpipe.pages\t0\t"), "\(reference.status)")
    }

    @Test(
        "the same collection through the Search API and Linked Art, and through OAI-PMH, gives the same works, makers and thumbnails",
        arguments: ["rijksmuseum-search", "rijksmuseum-oai"])
    func otherSourcesMatchGroundTruth(source: String) async throws {
        let reference = try await ReferenceRun.shared.get()
        let run = try PipelineRun(sample: reference.sample, source: source)
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        let (index, _) = try await run.waitForCompletion()
        // Linked Art: works whose object or visual item answers 404 are left out with a reason,
        // and a work with no maker is anonymous, as in the legacy API.
        let search = source == "rijksmuseum-search"
        let leftOut = search ? reference.sample.collection.linkedArtUnreadable : []
        #expect(!search || !leftOut.isEmpty)
        let problems = GroundTruth.mismatches(
            index, collection: reference.sample.collection, output: run.output, leftOut: leftOut,
            unknownMaker: search ? "anonymous" : nil)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        #expect(index.crawls.map(\.source) == [source])
        #expect(index.crawls.first?.pagesIndexed == Array(1...run.expectedPages))
        if !search { #expect(index.totals.thumbnails == reference.index.totals.thumbnails) }
        let versioned = index.artists.flatMap(\.works).allSatisfy { $0.recordId != nil && $0.datestamp != nil }
        #expect(versioned == (source == "rijksmuseum-oai"), "OAI-PMH works, and only they, are versioned records")
        try await run.expectCleanStop()
    }

    @Test(
        "replaying artpipe.pages from the earliest offset for the thumb and index groups changes no byte and downloads nothing"
    )
    func replayIsIdempotent() async throws {
        let reference = try await ReferenceRun.shared.get()
        let run = try PipelineRun(sample: reference.sample)
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        let (_, cleanFiles) = try await run.waitForCompletion()
        #expect(cleanFiles.firstDifference(from: reference.files) == nil)
        let imagesBefore = reference.sample.server.imageRequestsServed
        let live = try ChildProcess(
            "artpipe",
            [
                "replay", "--brokers", run.brokers, "--group", "artpipe-thumb", "--topic", ArtpipeTopic.pages,
                "--to-earliest", "--execute", "--join-timeout", "15",
            ]
                + EmbeddedBrokerSettings.flags)
        #expect(try await live.waitForExit(timeout: .seconds(60)) == 1, "refused while the thumb workers run")
        #expect(live.stderr.contains("live members"), "\(live.stderr)")

        let stopFailures = try await run.stopWorkers(["thumb-worker", "index-worker"])
        #expect(stopFailures.isEmpty, "\(stopFailures)")
        for group in ["artpipe-thumb", "artpipe-index"] {
            let dryRun = try ChildProcess(
                "artpipe",
                ["replay", "--brokers", run.brokers, "--group", group, "--topic", ArtpipeTopic.pages, "--to-earliest"])
            #expect(try await dryRun.waitForExit(timeout: .seconds(60)) == 0)
            #expect(dryRun.stdout.contains("dry run: nothing changed"))
            let replay = try ChildProcess(
                "artpipe",
                [
                    "replay", "--brokers", run.brokers, "--group", group, "--topic", ArtpipeTopic.pages,
                    "--to-earliest", "--execute",
                ])
            #expect(try await replay.waitForExit(timeout: .seconds(90)) == 0, "\(replay.stderr)")
            let rows = try await KafkaGroupOffsets(
                configuration: KafkaClientConfiguration(brokers: run.brokers), logger: .test
            ).positions(group: group, topics: [ArtpipeTopic.pages])
            #expect(rows.allSatisfy { $0.committed == $0.low }, "\(group) moved to the earliest offsets")
        }
        let thumbWorker = try run.start("thumb-worker")
        try run.start("index-worker")
        try await run.waitUntilCaughtUp(groups: ["artpipe-thumb", "artpipe-index"])
        try await waitUntil("the thumb worker to report the pages it handled again", timeout: .seconds(30)) {
            thumbWorker.stdout.split(separator: "\n").contains { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    return false
                }
                return object["msg"] as? String == "metrics" && (object["consumed"] as? Int ?? 0) >= 6
            }
        }
        let (_, files) = try await run.waitForCompletion()
        #expect(files.firstDifference(from: reference.files) == nil)
        #expect(reference.sample.server.imageRequestsServed == imagesBefore, "no image downloaded again")
        try await run.expectCleanStop()
    }

    /// How many copies of each worker run, and whether one of each is SIGKILLed and restarted.
    struct Scenario: Sendable, CustomTestStringConvertible {
        let instances: Int
        let kills: Bool

        var testDescription: String {
            "\(instances == 1 ? "one" : "two") of each worker" + (kills ? ", one of each SIGKILLed and restarted" : "")
        }
    }

    @Test(
        "crashes and scale-out leave the clean run's bytes",
        arguments: [
            Scenario(instances: 1, kills: true), Scenario(instances: 2, kills: false),
            Scenario(instances: 2, kills: true),
        ])
    func crashesAndInstances(_ scenario: Scenario) async throws {
        let reference = try await ReferenceRun.shared.get()
        let run = try PipelineRun(sample: reference.sample)
        defer { run.killWorkers() }
        try run.startWorkers(instances: scenario.instances)
        try await run.crawl()
        if scenario.kills {
            var generator = SystemRandomNumberGenerator()
            for role in ["fetch-worker", "thumb-worker", "index-worker"].shuffled(using: &generator) {
                // The moment is the input here, not a wait for something.
                try await Task.sleep(for: .milliseconds(Int.random(in: 200...2_500, using: &generator)))
                try await run.killAndRestart(role)
            }
        }
        let (index, files) = try await run.waitForCompletion()
        #expect(GroundTruth.mismatches(index, collection: reference.sample.collection, output: run.output).isEmpty)
        #expect(files.firstDifference(from: reference.files) == nil)
        try await run.expectCleanStop()
    }

    @Test("a broker outage in the middle of the run: the run completes with the same bytes, nothing lost")
    func brokerOutage() async throws {
        let reference = try await ReferenceRun.shared.get()
        let run = try PipelineRun(sample: reference.sample)
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        try await waitUntil("some pages indexed", timeout: .seconds(120)) {
            (await run.manifest?.progress(crawlId: PipelineRun.crawlId).pagesIndexed ?? 0) >= 1
        }
        run.cluster.broker.setBrokerDown()
        // The outage's length is the input.
        try await Task.sleep(for: .seconds(3))
        run.cluster.broker.setBrokerUp()
        let (_, files) = try await run.waitForCompletion()
        #expect(files.firstDifference(from: reference.files) == nil)
        try await run.expectCleanStop()
    }

    @Test(
        "Flickr and iTunes through the three workers: grouped by owner and by artist, each photo or song once, thumbnails made",
        arguments: ["flickr", "itunes"])
    func serviceSources(source: String) async throws {
        let flickr = source == "flickr"
        var faults = SampleServerFaults()
        // Flickr's stand-in answers each page's first request `stat: fail` (code 105) with status 200.
        faults.failFirst = flickr ? 1 : 0
        let sample = try await SampleServerHandle.start(ReferenceRun.configuration, faults: faults)
        let run = try PipelineRun(sample: sample, source: source)
        run.fetchWorkerFlags = ["--retry-delays", "1s,1s,1s"]
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        let (index, _) = try await run.waitForCompletion(timeout: .seconds(240))
        let collection = sample.collection
        // Flickr's pages are the legacy listings, neighbours overlapping; iTunes lists each work once.
        let expected = flickr ? collection.pages.flatMap { $0 } : collection.works
        #expect(flickr == (expected.count > collection.works.count), "the Flickr stand-in's pages overlap")
        let problems = GroundTruth.mismatches(
            index, expected: expected, output: run.output,
            unknownMaker: flickr ? SampleCollectionServer.flickrNamelessOwner : nil,
            objectNumber: { "\(source)-\($0.id)" })
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        #expect(index.totals.works == collection.works.count)
        #expect(index.totals.thumbnails["ok"] == collection.works.filter(\.hasGoodImage).count)
        let crawl = try #require(index.crawls.first)
        #expect(index.crawls.map(\.source) == [source])
        #expect(crawl.pagesIndexed == Array(1...run.expectedPages))
        #expect(crawl.failedPages.isEmpty, "\(crawl.failedPages)")
        // iTunes never says how many results a search has: the crawl's total is how far it got.
        #expect(crawl.total == (flickr ? collection.count : collection.works.count))
        try await run.expectCleanStop()
        await sample.stop()
    }

    @Test(
        "429s, 5xx and slow answers from the API: the run completes; a page that fails past --retry-for and a 410 are dead-lettered and reported"
    )
    func apiFailures() async throws {
        var faults = SampleServerFaults()
        faults.latency = .milliseconds(30)
        faults.failFirst = 2
        faults.failingPages = [3]
        faults.rejectedPages = [5: 410]
        faults.imageFailFirst = 1
        let sample = try await SampleServerHandle.start(ReferenceRun.configuration, faults: faults)
        let run = try PipelineRun(sample: sample)
        run.fetchWorkerFlags = ["--retry-delays", "1s,1s,1s", "--retry-for", "4s"]
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        let (index, _) = try await run.waitForCompletion(timeout: .seconds(240))
        let crawl = try #require(index.crawls.first { $0.crawlId == PipelineRun.crawlId })
        #expect(crawl.failedPages.map(\.page) == [3, 5])
        #expect(crawl.failedPages.first?.reason.contains("500") == true, "\(crawl.failedPages)")
        #expect(crawl.pagesIndexed == [1, 2, 4, 6])
        let problems = GroundTruth.mismatches(
            index, collection: sample.collection, output: run.output, failedPages: [3, 5])
        #expect(problems.isEmpty, "\(problems.prefix(10))")

        let deadLetters = try await readTopic(
            ArtpipeTopic.deadLetters, brokers: run.brokers, count: 2, timeout: .seconds(30))
        // Retried until --retry-for ran out, with the history of its attempts.
        let failing = try #require(deadLetters.first { $0.keyString?.hasSuffix(":3") == true })
        let history = try #require(RetryState(headers: failing.headers))
        #expect(history.attempts >= 2)
        #expect(history.history.allSatisfy { $0.reason.contains("HTTP 500") })
        // A 410 can never succeed: dead-lettered at once, never put on a retry topic.
        let gone = try #require(deadLetters.first { $0.keyString?.hasSuffix(":5") == true })
        #expect(RetryState(headers: gone.headers) == nil)
        #expect(gone.headers.value(of: DeadLetter.errorHeader)?.contains("HTTP 410") == true)
        let client = KafkaClientConfiguration(brokers: run.brokers)
        for topic in ArtpipeTopic.pageRequestRetries {
            let copies = try await KafkaTopicSnapshot.read(
                topic, configuration: client, timeout: .seconds(30), logger: .test)
            #expect(!copies.contains { $0.keyString?.hasSuffix(":5") == true }, "\(topic)")
        }

        let status = try ChildProcess("artpipe", ["status", "--brokers", run.brokers, "--out", run.output.path])
        #expect(try await status.waitForExit(timeout: .seconds(60)) == 0)
        #expect(status.stdout.contains("4 indexed, 2 failed, 0 waiting for a retry"), "\(status.stdout)")
        #expect(status.stdout.contains("(page 3) in fetch: still failing after"), "\(status.stdout)")
        #expect(status.stdout.contains("after 5 attempts: HTTP 500"), "\(status.stdout)")
        #expect(status.stdout.contains("(page 5) in fetch: HTTP 410"), "\(status.stdout)")
        try await run.expectCleanStop()
        await sample.stop()
    }
}

/// `artpipe demo` as the README runs it, at a small size.
@Suite("artpipe demo", .serialized, .timeLimit(.minutes(4)))
struct DemoCommandTests {
    @Test("demo runs every role as a process, exits 0 with a summary, and leaves a gallery")
    func demoCompletes() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("demo"))
        let demo = try ChildProcess(
            "artpipe", ["demo", "--out", output.path, "--pages", "3", "--page-size", "15", "--timeout", "180"])
        defer { demo.stop() }
        #expect(try await demo.waitForExit(timeout: .seconds(200)) == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("artpipe demo: complete in"), "\(demo.stdout)")
        // The default source, OAI-PMH, serves the 45 listings' distinct works as one page of records.
        #expect(demo.stdout.contains("pages       1 indexed, 0 failed"), "\(demo.stdout)")
        #expect(demo.stdout.contains("thumb-worker:"), "\(demo.stdout)")
        // The thumbnail stage's own speed, next to its CPU share.
        let speed = try #require(demo.stdout.split(separator: "\n").first { $0.contains("MiB decoded:") })
        #expect(speed.contains("images/s and") && speed.contains("MiB/s per CPU second"), "\(speed)")
        #expect(!speed.contains(" 0 images,"), "\(speed)")
        #expect(demo.stdout.contains("peak RSS    "), "\(demo.stdout)")
        let front = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(front.contains("gallery/letter-"))
        let gallery = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("gallery").path)
        let bucket = try #require(gallery.first { $0.hasSuffix(".html") && !$0.hasPrefix("letter-") })
        let page = try String(contentsOf: output.appendingPathComponent("gallery/\(bucket)"), encoding: .utf8)
        #expect(page.contains("<figure "))
        // Every role stopped cleanly: it logged, and nothing at level error (a stop is not a failure).
        for role in ["broker", "sample-server", "fetch-worker", "thumb-worker", "index-worker"] {
            let log = try String(contentsOf: output.appendingPathComponent("logs/\(role).log"), encoding: .utf8)
            #expect(!log.isEmpty, "\(role) logged")
            let errors = log.split(separator: "\n").filter { $0.contains(#""level":"error""#) }
            #expect(errors.isEmpty, "\(role) logged errors: \(errors)")
        }
    }

    @Test("demo refuses an output directory it did not make, and deletes nothing in it")
    func demoRefusesForeignDirectory() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("not-demo"))
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let precious = output.appendingPathComponent("precious.txt")
        try Data("keep me".utf8).write(to: precious)
        let demo = try ChildProcess("artpipe", ["demo", "--out", output.path])
        #expect(try await demo.waitForExit(timeout: .seconds(30)) == 2)
        #expect(demo.stderr.contains("not empty and was not made by artpipe demo"), "\(demo.stderr)")
        #expect(FileManager.default.fileExists(atPath: precious.path))
    }
}

@Suite("Incremental OAI-PMH harvests", .serialized, .timeLimit(.minutes(10)))
struct IncrementalHarvestTests {
    /// Works, makers and thumbnails of an index, without where each came from (page ids and
    /// crawls differ between an incremental and a full harvest by design).
    static func works(_ index: ArtistIndex) -> [String] {
        index.artists.flatMap { artist in
            artist.works.map {
                "\(artist.name)|\($0.objectNumber)|\($0.title)|\($0.thumbnailStatus)|\($0.recordId ?? "")|"
                    + "\($0.datestamp ?? "")|\($0.thumbnails.sorted { $0.key < $1.key })"
            }
        }
    }

    static var configuration: SampleCollection.Configuration {
        var configuration = SampleCollection.Configuration()
        configuration.seed = 5
        configuration.pages = 12
        configuration.pageSize = 40
        configuration.brokenImageRate = 0
        return configuration
    }

    @Test(
        "a full harvest whose resumption token is refused, then SIGKILL of each worker during the incremental harvest: the same works, deletions gone"
    )
    func killsDuringIncrementalHarvest() async throws {
        var faults = SampleServerFaults()
        // The full harvest's last page is asked for with a token the server refuses (the list
        // changed under it): the harvest lists from its start again and loses nothing.
        faults.oaiRefusedTokenRequests = [2]
        let sample = try await SampleServerHandle.start(Self.configuration, faults: faults)
        defer { Task { await sample.stop() } }
        let revised = sample.collection.revision(1)
        let run = try PipelineRun(sample: sample, source: "rijksmuseum-oai")
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        _ = try await run.waitForCompletion()

        sample.server.advance(to: 1)
        try await run.crawl(crawlId: "e2e-since", extra: ["--since", "last"])
        var generator = SystemRandomNumberGenerator()
        for role in ["fetch-worker", "thumb-worker", "index-worker"].shuffled(using: &generator) {
            // The moment is the input here, not a wait for something.
            try await Task.sleep(for: .milliseconds(Int.random(in: 50...1_200, using: &generator)))
            try await run.killAndRestart(role)
        }
        let changed = revised.filter { $0.state.changedAt == 1 }.count
        let (index, _) = try await run.waitForCompletion(crawlId: "e2e-since", expectedPages: (changed + 199) / 200)
        let live = revised.compactMap(\.state.work)
        let problems = GroundTruth.mismatches(index, expected: live, output: run.output)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        #expect(index.totals.works == live.count)
        try await run.expectCleanStop()
    }

    @Test("harvest revision 0, then --since last against revision 1: the works of a full harvest of revision 1")
    func sinceLast() async throws {
        let sample = try await SampleServerHandle.start(Self.configuration)
        defer { Task { await sample.stop() } }
        let revised = sample.collection.revision(1)
        let changed = revised.filter { $0.state.changedAt == 1 }
        let deleted = revised.filter { $0.state.work == nil }
        try #require(!deleted.isEmpty && changed.count > deleted.count, "the seed revises and deletes works")

        let run = try PipelineRun(sample: sample, source: "rijksmuseum-oai")
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        _ = try await run.waitForCompletion()
        let requestsBefore = sample.server.requestsServed - sample.server.imageRequestsServed

        sample.server.advance(to: 1)
        try await run.crawl(crawlId: "e2e-since", extra: ["--since", "last"])
        let incrementalPages = (changed.count + 199) / 200
        let (incremental, _) = try await run.waitForCompletion(crawlId: "e2e-since", expectedPages: incrementalPages)
        let incrementalRequests = sample.server.requestsServed - sample.server.imageRequestsServed - requestsBefore
        // One request for the crawl's count, then one per page of changed records: a full harvest takes
        // one per page of the whole collection.
        #expect(
            incrementalRequests == incrementalPages + 1, "the incremental harvest asked for the changed records only")
        #expect(incrementalPages < run.expectedPages)
        let live = revised.compactMap(\.state.work)
        let problems = GroundTruth.mismatches(incremental, expected: live, output: run.output)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        for gone in deleted {
            #expect(!Self.works(incremental).contains { $0.contains("|\(gone.original.objectNumber)|") })
        }
        try await run.expectCleanStop()

        // The deleted works' thumbnails are left behind; prune lists them, then removes them.
        let deletedOwners = Set(deleted.map { ThumbnailFileName.workOwner($0.original.objectNumber) })
        let sized = run.output.appendingPathComponent("thumbs/200")
        let orphans = (FileManager.default.enumerator(atPath: sized.path)?.allObjects as? [String] ?? [])
            .filter { deletedOwners.contains(ThumbnailFileName.owner(ofPath: $0).work) }.map { "thumbs/200/\($0)" }
        try #require(
            orphans.count == deleted.filter(\.original.hasGoodImage).count, "each deleted work with an image had one")
        // The whole pipeline ran moments ago: only a prune keeping nothing recent takes these.
        let dryRun = try ChildProcess("artpipe", ["prune", "--out", run.output.path, "--keep-recent", "0s"])
        #expect(try await dryRun.waitForExit(timeout: .seconds(30)) == 0, "\(dryRun.stderr)")
        for orphan in orphans {
            #expect(dryRun.stdout.contains("would remove \(orphan)\n"), "\(dryRun.stdout)")
        }
        let execute = try ChildProcess(
            "artpipe", ["prune", "--out", run.output.path, "--execute", "--keep-recent", "0s"])
        #expect(try await execute.waitForExit(timeout: .seconds(30)) == 0, "\(execute.stderr)")
        for orphan in orphans {
            #expect(!FileManager.default.fileExists(atPath: run.output.appendingPathComponent(orphan).path))
        }
        let kept = incremental.artists.flatMap(\.works).flatMap(\.thumbnails.values)
        #expect(kept.allSatisfy { FileManager.default.fileExists(atPath: run.output.appendingPathComponent($0).path) })

        // A fresh pipeline harvesting revision 1 in full must hold the same works.
        let full = try PipelineRun(sample: sample, source: "rijksmuseum-oai")
        defer { full.killWorkers() }
        try full.startWorkers()
        try await full.crawl()
        let (fullIndex, _) = try await full.waitForCompletion()
        #expect(Self.works(incremental) == Self.works(fullIndex))
        #expect(incremental.totals.works == live.count && fullIndex.totals.works == live.count)
        try await full.expectCleanStop()
    }
}
