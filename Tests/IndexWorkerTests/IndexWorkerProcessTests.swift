import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import KafkaTestKit
import ObjectStorage
import PipelineContract
import Testing

/// `artpipe index-worker` as separate processes on a real broker, against the pure build of
/// the same inputs.
@Suite("IndexWorker processes: crash-safe and scale-out", .serialized, .timeLimit(.minutes(4)))
struct IndexWorkerProcessTests {
    struct Setup {
        let cluster: TestBroker
        let output: URL
        /// Where the workers publish: the folder ``output`` unless ``publish(to:)`` chose a bucket.
        var store: any OutputStore
        var outFlags: [String]
        var environment: [String: String] = [:]
        let messages: [KafkaProducerRecord]
        let index: ArtistIndex
        private(set) var expected: PublishedFiles
        private let staged: [StagedIndexBuild.Input]

        /// The recorded pages with their thumbnails, and a page the fetch worker gave up on.
        /// - Parameter output: an output folder to publish to; a new one by default.
        init(output: URL? = nil) throws {
            let pages = try ArtistIndexTests.recordedPages()
            var inputs = IndexInputs()
            var staged: [StagedIndexBuild.Input] = []
            var records: [KafkaProducerRecord] = []
            for page in pages {
                inputs.add(page)
                staged.append(.page(page))
                records.append(try MessageCodec.record(page, topic: ArtpipeTopic.pages))
                let thumbnails = ArtistIndexTests.thumbnails(for: page)
                inputs.add(thumbnails)
                staged.append(.thumbnails(thumbnails))
                records.append(try MessageCodec.record(thumbnails, topic: ArtpipeTopic.thumbnails))
            }
            // A page FetchWorker gave up on, as its dead letter.
            let failed = PageRequest(
                crawlId: "crawl-a", source: "rijksmuseum", query: ["s": "artist", "c": "crawl-a"], page: 4, pageSize: 20
            )
            inputs.addFailure(failed, reason: "HTTP 503 (after 5 attempts)")
            staged.append(.failed(failed, reason: "HTTP 503 (after 5 attempts)"))
            let original = KafkaConsumerMessage(
                topic: ArtpipeTopic.pageRequests, partition: 0, offset: 7, key: Array(failed.pageId.utf8),
                value: try MessageCodec.record(failed, topic: ArtpipeTopic.pageRequests).value)
            records.append(DeadLetter.record(for: original, reason: "HTTP 503 (after 5 attempts)", worker: "fetch"))
            try self.init(messages: records, staged: staged, index: ArtistIndex.build(from: inputs), output: output)
        }

        /// `pages` alone, in their order.
        /// - Parameter broker: the broker the workers use, its topics made; nil: a new embedded one.
        init(pages: [Page], output: URL? = nil, broker: TestBroker? = nil) throws {
            var inputs = IndexInputs()
            for page in pages { inputs.add(page) }
            try self.init(
                messages: try pages.map { try MessageCodec.record($0, topic: ArtpipeTopic.pages) },
                staged: pages.map { .page($0) }, index: ArtistIndex.build(from: inputs), output: output,
                broker: broker)
        }

        /// `pages` alone, through a Tansu broker of their own (``TansuCluster``), its topics made
        /// by `artpipe topics create`.
        static func onTansu(pages: [Page]) async throws -> Setup {
            let tansu = try await TansuCluster()
            let create = try ChildProcess(
                "artpipe", ["topics", "create", "--brokers", tansu.brokers, "--partitions", "3"])
            guard try await create.waitForExit(timeout: .seconds(60)) == 0 else {
                await tansu.shutdown()
                throw TansuUnavailable(output: "topics create: \(create.stderr)")
            }
            return try Setup(pages: pages, broker: .tansu(tansu))
        }

        private init(
            messages: [KafkaProducerRecord], staged: [StagedIndexBuild.Input], index: ArtistIndex, output: URL?,
            broker: TestBroker? = nil
        ) throws {
            if let broker {
                cluster = broker
            } else {
                let embedded = try TestCluster()
                // One partition count for every topic, as `artpipe topics create` makes them.
                for topic in ArtpipeTopic.all { try embedded.broker.createTopic(topic, partitions: 3) }
                cluster = .embedded(embedded)
            }
            self.output =
                output ?? FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("index-out"))
            store = FolderOutputStore(directory: self.output)
            outFlags = ["--out", self.output.path]
            self.messages = messages
            self.index = index
            self.staged = staged
            expected = PublishedFiles(try StagedIndexBuild.files(staged, partitions: 3))
        }

        /// Expects the files as copies given `--site-url` with `site` publish them.
        mutating func serve(at site: String) throws {
            let address = try #require(SiteAddress(site))
            expected = PublishedFiles(try StagedIndexBuild.files(staged, partitions: 3, site: address))
        }

        /// Runs `body` with a setup whose workers publish to a bucket of a Ceph gateway of its own.
        static func onCeph(_ body: (Setup) async throws -> Void) async throws {
            let s3 = try await S3TestStore.start(.cephGateway)
            defer { s3.stop() }
            var setup = try Setup()
            try await setup.publish(to: s3)
            try await body(setup)
        }

        /// Makes the workers publish to a new bucket of `s3`, with its keys in their environment.
        mutating func publish(to s3: S3TestStore) async throws {
            let address = "s3://\(UniqueName.make("index").lowercased())/site"
            let client = try await s3.makeBucket(address)
            store = BucketOutputStore(client: client)
            outFlags = ["--out", address, "--s3-endpoint", s3.endpoint]
            environment = ["AWS_ACCESS_KEY_ID": s3.accessKeyID, "AWS_SECRET_ACCESS_KEY": s3.secretAccessKey]
        }

        func startWorker(writeInterval: String = "0.2", metricsInterval: String = "60", flags: [String] = [])
            throws -> ChildProcess
        {
            try ChildProcess(
                "artpipe",
                ["index-worker", "--brokers", cluster.brokers] + outFlags + [
                    "--write-interval", writeInterval, "--metrics-interval", metricsInterval,
                ] + EmbeddedBrokerSettings.flags + flags, environment: environment)
        }

        /// Every published file now.
        var published: PublishedFiles? {
            get async {
                let store = self.store
                return try? await offCooperativePool {
                    PublishedFiles(in: store, paths: try IndexLayout.publishedVersions(in: store).keys)
                }
            }
        }

        /// The summaries the shared files are assembled from, and which ones they were: for
        /// failure messages.
        var summaries: String {
            get async {
                let store = self.store
                return
                    (try? await offCooperativePool { () -> String in
                        let folders = [IndexSummaries.folder, IndexSummaries.shardsFolder, IndexSummaries.pagesFolder]
                        return try folders.flatMap {
                            try store.versions(in: $0.hasSuffix("/") ? String($0.dropLast()) : $0).keys
                        }.sorted().map { path in
                            "\(path): \(String(decoding: try store.read(path) ?? [], as: UTF8.self).prefix(700))"
                        }.joined(separator: "; ")
                    }) ?? "unreadable"
            }
        }

        /// Where the works and artist stages' groups stand on their topics (committed/end by
        /// partition): for failure messages.
        var stagePositions: String {
            get async {
                let offsets = KafkaGroupOffsets(
                    configuration: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)
                var lines: [String] = []
                for (group, topic) in [
                    (IndexStages.worksGroup, ArtpipeTopic.indexWorks),
                    (IndexStages.artistsGroup, ArtpipeTopic.indexArtists),
                ] {
                    let rows = (try? await offsets.positions(group: group, topics: [topic])) ?? []
                    let text = rows.sorted { $0.topicPartition.partition < $1.topicPartition.partition }
                        .map { "\($0.committed.map(String.init) ?? "none")/\($0.high)" }
                    lines.append("\(group) on \(topic): \(text)")
                }
                return lines.joined(separator: "; ")
            }
        }

        /// - Parameter workers: whose warnings and last output a timeout reports.
        func waitForExpectedIndex(workers: [ChildProcess] = []) async throws {
            var differing: [String] = []
            var manifest = ""
            var difference = ""
            var summaries = ""
            // What the manifests count, to tell a stalled assembly from a wrong one.
            func totals(_ bytes: [UInt8]?) -> String {
                guard let text = bytes.map({ String(decoding: $0, as: UTF8.self) }),
                    let start = text.range(of: "\"totals\"")
                else { return "none" }
                return String(text[start.lowerBound...].prefix(400))
            }
            try await waitUntil(
                "the published files to match the pure build; differing: \(differing.prefix(5)); first: \(difference); published \(manifest); expected \(totals(expected.files[IndexLayout.manifestPath])); summaries: \(summaries); \(Self.report(workers))",
                timeout: .seconds(90)
            ) {
                let files = await published?.files ?? [:]
                differing = Set(files.keys).union(expected.files.keys).filter { files[$0] != expected.files[$0] }
                    .sorted()
                manifest = totals(files[IndexLayout.manifestPath])
                difference = PublishedFiles(files).firstDifference(from: expected, among: differing) ?? ""
                if !differing.isEmpty { summaries = await self.summaries + "; " + (await self.stagePositions) }
                return differing.isEmpty
            }
        }

        /// Each worker's last events and metrics: a timeout that only says what was published
        /// leaves a copy that stopped early unexplained.
        static func report(_ workers: [ChildProcess]) -> String {
            workers.enumerated().map { number, worker in "worker \(number + 1): \(worker.logSummary())" }
                .joined(separator: "; ")
        }
    }

    @Test("every published file is byte-identical to the pure build of the same pages; the gallery shows every work")
    func cleanRun() async throws {
        let setup = try Setup()
        try await setup.cluster.producer.send(setup.messages)
        let worker = try setup.startWorker()
        defer { worker.stop() }
        try await setup.waitForExpectedIndex()
        worker.signal(SIGTERM)
        #expect(try await worker.waitForExit(timeout: .seconds(40)) == 0)
        let index = setup.index
        let pages = setup.expected.files.filter { $0.key.hasPrefix("gallery/") && $0.key.hasSuffix(".html") }
        let figures = pages.values.map {
            String(decoding: $0, as: UTF8.self).components(separatedBy: "<figure ").count - 1
        }
        #expect(figures.reduce(0, +) == index.totals.works)
        // Read back: the works and makers of the whole build (thumbnails join by image since 0.7).
        let readBack = try PublishedIndex.read(from: setup.output).index
        #expect(readBack.artists.map(\.name) == index.artists.map(\.name), "the files read back")
        #expect(
            readBack.artists.map { $0.works.map(\.objectNumber) } == index.artists.map { $0.works.map(\.objectNumber) })
        #expect(index.crawls.first { $0.crawlId == "crawl-a" }?.failedPages.map(\.page) == [4])
        await setup.cluster.shutdown()
    }

    @Test(
        "SIGKILLed at random moments while indexing: after restarts the file is byte-identical to an uninterrupted run")
    func sigkillAndRestart() async throws {
        let setup = try Setup()
        let batches = [
            Array(setup.messages.prefix(4)), Array(setup.messages.dropFirst(4).prefix(4)),
            Array(setup.messages.dropFirst(8)),
        ]
        var generator = SystemRandomNumberGenerator()
        // Round 1 dies after committing its input offsets but before it published anything: the
        // restart publishes from the index topics alone. Later rounds die at random moments
        // while publishing every 0.2 s, so restarts resume from a partly written output.
        for (round, batch) in batches.enumerated() {
            try await setup.cluster.producer.send(batch)
            if round == 0 {
                // Rounds come within a tenth of the interval after a change: 30 s, past the kill.
                let worker = try setup.startWorker(writeInterval: "300", metricsInterval: "1")
                try await waitUntil("offsets committed (lag 0) with nothing written", timeout: .seconds(60)) {
                    worker.stdout.split(separator: "\n").contains { line in
                        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                            object["msg"] as? String == "metrics"
                        else { return false }
                        return (object["consumed"] as? Int ?? 0) >= batch.count && object["consumer_lag"] as? Int == 0
                    }
                }
                worker.signal(SIGKILL)
                _ = try await worker.waitForExit(timeout: .seconds(10))
                continue
            }
            let worker = try setup.startWorker()
            try await waitUntil("the worker to write an index", timeout: .seconds(60)) {
                await setup.published?.files[IndexLayout.manifestPath] != nil
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...1_500, using: &generator)))
            worker.signal(SIGKILL)
            _ = try await worker.waitForExit(timeout: .seconds(10))
        }
        let last = try setup.startWorker()
        defer { last.stop() }
        try await setup.waitForExpectedIndex(workers: [last])
        await setup.cluster.shutdown()
    }

    @Test(
        "two IndexWorkers on the same topics and output end with the same bytes as one; a third given the first's --state is refused at start"
    )
    func twoInstances() async throws {
        let setup = try Setup()
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("index-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let first = try setup.startWorker(flags: ["--state", state.path])
        let second = try setup.startWorker()
        defer {
            first.stop()
            second.stop()
        }
        try await setup.cluster.producer.send(setup.messages)
        try await setup.waitForExpectedIndex(workers: [first, second])
        // Each would replace the other's files: a copy's state folder is its own.
        let third = try setup.startWorker(flags: ["--state", state.path])
        #expect(try await third.waitForExit(timeout: .seconds(60)) == 2)
        #expect(
            third.stderr.contains("is in use by another index worker: give each copy its own --state"),
            "\(third.stderr)")
        try await setup.waitForExpectedIndex()
        await setup.cluster.shutdown()
    }

    @Test(
        "a rebuild from new index topics into an output holding a complete index without summaries (an upgrade from 0.6) never shows it smaller"
    )
    func rebuildOverAnIndex() async throws {
        // Enough works that the rebuild spans many publish rounds.
        let pages = (1...300).map { number in
            Page(
                request: PageRequest(
                    crawlId: "rebuild", source: "rijksmuseum", query: ["s": "artist"], page: number, pageSize: 20),
                total: 6_000,
                artworks: (0..<20).map { position in
                    let serial = (number - 1) * 20 + position
                    return Artwork(
                        objectNumber: "RB-\(serial)", title: "Work \(serial)", artist: "Artist \(serial / 37)",
                        imageURL: nil, width: nil, height: nil, position: position)
                })
        }
        let records = try pages.map { try MessageCodec.record($0, topic: ArtpipeTopic.pages) }
        let first = try Setup()
        try await first.cluster.producer.send(records)
        let worker = try first.startWorker()
        try await waitUntil("the first index of every work", timeout: .seconds(120)) {
            (try? PublishedIndex.manifest(in: first.output))?.totals.works == 6_000
        }
        worker.signal(SIGTERM)
        #expect(try await worker.waitForExit(timeout: .seconds(40)) == 0)
        await first.cluster.shutdown()
        let complete = try #require(await first.published)
        // As 0.6 leaves an output: its index, none of the summaries 0.7 keeps beside it.
        try FileManager.default.removeItem(at: first.output.appendingPathComponent(IndexSummaries.folder))
        // The same pages on a new cluster, whose index topics are empty, into the same output.
        let second = try Setup(output: first.output)
        try await second.cluster.producer.send(records)
        let sampler = WorkCountSampler(store: second.store)
        await sampler.start()
        let sampling = Task { await sampler.run() }
        defer { sampling.cancel() }
        let rebuilding = try second.startWorker()
        defer { rebuilding.stop() }
        try await waitUntil("the rebuild to assemble its first index", timeout: .seconds(120)) {
            FileManager.default.fileExists(
                atPath: second.output.appendingPathComponent(IndexSummaries.assembledPath).path)
        }
        try await waitUntil("the files of the first run again", timeout: .seconds(60)) {
            await second.published == complete
        }
        let seen = await sampler.finish()
        #expect(
            seen.shrinks.isEmpty,
            "a read showed fewer works than the index held: \(seen.shrinks.prefix(3)); work lines read: \(seen.changes.prefix(20))"
        )
        await second.cluster.shutdown()
    }

    @Test(
        "a record moved to another page and back, among 6,000 works, through three copies with their own --state (one killed as it restores, restarted on its state, the move back sent meanwhile), then a replay from the earliest into a fresh copy and a new page: no read shows fewer works; at rest the one pass's bytes, the record at its last version"
    )
    func movedBackThroughCopies() async throws {
        try await movedBackThroughCopies(try Setup(pages: Self.movedBackPages))
    }

    /// On Tansu 0.6, a group whose members have all left is not joined again reliably: its
    /// coordinator may elect a member that left as the leader, and the group then waits for its
    /// assignment for good. The replay into a fresh copy, which needs that, runs on the embedded
    /// broker only.
    @Test(
        "the same history through three copies on Tansu (its end offsets name the first offset of a log's last batch): at rest the one pass's bytes, no read shows fewer works",
        .enabled(if: TansuCluster.binary != nil, "make test runs it, with Tansu and a newer librdkafka")
    )
    func movedBackThroughCopiesOnTansu() async throws {
        try await movedBackThroughCopies(try await Setup.onTansu(pages: Self.movedBackPages), replay: false)
    }

    /// - Parameter replay: whether the index group is then replayed into a fresh copy; else the
    ///   new page goes to the copies that ran the history.
    private func movedBackThroughCopies(_ setup: Setup, replay: Bool = true) async throws {
        let record = setup.index.artists.flatMap(\.works).filter { $0.objectNumber == "R" }.map(\.title)
        #expect(record == ["three"], "the pure build shows the record at its last version")
        // Sent in three parts: the bulk and the record's first two pages; its move back; a new page.
        let (first, back, last) = (
            Array(setup.messages.prefix(302)), Array(setup.messages[302...302]), Array(setup.messages.suffix(1))
        )
        try await setup.cluster.producer.send(first)
        let states = (0..<4).map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("index-state"))
        }
        defer { for state in states { try? FileManager.default.removeItem(at: state) } }
        var copies = try states.prefix(3).map { try setup.startWorker(flags: ["--state", $0.path]) }
        defer { for copy in copies { copy.stop() } }
        try await Self.waitForTitle("two", of: "R", in: setup.store, works: 6_041, workers: copies)
        let sampler = WorkCountSampler(store: setup.store)
        await sampler.start()
        let sampling = Task { await sampler.run() }
        defer { sampling.cancel() }

        // The first copy leaves; the second, restoring what it is given, is killed meanwhile.
        let (leaving, killed) = (copies[0], copies[1])
        let restores = { killed.output.components(separatedBy: "restoring changelog").count }
        let restoresBefore = restores()
        leaving.signal(SIGTERM)
        #expect(try await leaving.waitForExit(timeout: .seconds(60)) == 0, "\(leaving.outputTail(lines: 15))")
        try await waitUntil(
            "the second copy to begin a restore after the first left", timeout: .seconds(60),
            pollEvery: .milliseconds(5)
        ) {
            restores() > restoresBefore
        }
        // A moment within the restore of a stage or of two (a few milliseconds at this size).
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...30)))
        killed.signal(SIGKILL)
        _ = try await killed.waitForExit(timeout: .seconds(10))
        // The record moves back while a copy is down; the killed one starts again on its own state.
        try await setup.cluster.producer.send(back)
        let restarted = try setup.startWorker(flags: ["--state", states[1].path])
        copies = [restarted, copies[2]]
        try await waitUntil("the restarted copy to restore what it is given", timeout: .seconds(90)) {
            restarted.output.contains("changelog restored")
        }
        try await Self.waitForTitle("three", of: "R", in: setup.store, works: 6_041, workers: copies)
        guard replay else {
            try await setup.cluster.producer.send(last)
            try await setup.waitForExpectedIndex(workers: copies)
            let seen = await sampler.finish()
            #expect(seen.reads > 20, "the sampler read the index throughout")
            #expect(seen.shrinks.isEmpty, "a read showed fewer works than an earlier one: \(seen.shrinks.prefix(3))")
            for copy in copies {
                copy.signal(SIGTERM)
                #expect(try await copy.waitForExit(timeout: .seconds(60)) == 0, "\(copy.outputTail(lines: 15))")
            }
            await setup.cluster.shutdown()
            return
        }

        // Every copy stopped, the index group moved to the earliest offsets, one fresh copy, a new page.
        for copy in copies {
            copy.signal(SIGTERM)
            #expect(
                try await copy.waitForExit(timeout: .seconds(60)) == 0,
                "\(copy.exitedBySignal ? "signal" : "exit") \(copy.exitStatus): \(copy.outputTail(lines: 15)); \(copy.keptLog(as: "index-copy"))"
            )
        }
        let replay = try ChildProcess(
            "artpipe",
            [
                "replay", "--brokers", setup.cluster.brokers, "--group", PipelineStage.index.groupID, "--topic",
                ArtpipeTopic.pages, "--to-earliest", "--execute",
            ])
        #expect(try await replay.waitForExit(timeout: .seconds(90)) == 0, "\(replay.stderr)")
        let offsets = KafkaGroupOffsets(
            configuration: KafkaClientConfiguration(brokers: setup.cluster.brokers), logger: .test)
        #expect(
            try await offsets.positions(group: PipelineStage.index.groupID, topics: [ArtpipeTopic.pages])
                .allSatisfy { $0.committed == $0.low }, "the index group moved to the earliest offsets")
        let fresh = try setup.startWorker(flags: ["--state", states[3].path])
        copies = [fresh]
        try await setup.cluster.producer.send(last)
        try await waitUntil("the fresh copy to handle every page again", timeout: .seconds(120)) {
            let positions =
                (try? await offsets.positions(group: PipelineStage.index.groupID, topics: [ArtpipeTopic.pages])) ?? []
            // At least: Tansu's end is the first offset of the last batch, plus one.
            return !positions.isEmpty && positions.allSatisfy { ($0.committed ?? -1) >= $0.high }
        }
        try await setup.waitForExpectedIndex(workers: copies)
        let seen = await sampler.finish()
        #expect(seen.reads > 20, "the sampler read the index throughout")
        #expect(seen.shrinks.isEmpty, "a read showed fewer works than an earlier one: \(seen.shrinks.prefix(3))")
        fresh.signal(SIGTERM)
        #expect(try await fresh.waitForExit(timeout: .seconds(60)) == 0, "\(fresh.outputTail(lines: 15))")
        await setup.cluster.shutdown()
    }

    /// Waits until the output's manifest counts `works` and the work lines show `objectNumber`
    /// once, titled `title`.
    static func waitForTitle(
        _ title: String, of objectNumber: String, in store: any OutputStore, works: Int, workers: [ChildProcess]
    ) async throws {
        var titles: [String] = []
        var counted: Int?
        try await waitUntil(
            "\(objectNumber) shown once as \"\(title)\" among \(works) works; shown: \(titles), counted \(String(describing: counted)); \(Setup.report(workers))",
            timeout: .seconds(90)
        ) {
            guard
                let (shown, total) = try? await offCooperativePool({ () -> ([String], Int?) in
                    var shown: [String] = []
                    for (path, _) in try IndexLayout.publishedVersions(in: store) where path.hasPrefix("works/") {
                        for line in (try store.read(path) ?? []).split(separator: UInt8(ascii: "\n")) {
                            if let work = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                                work["objectNumber"] as? String == objectNumber
                            {
                                shown.append(work["title"] as? String ?? "")
                            }
                        }
                    }
                    return (shown, (try? PublishedIndex.manifest(in: store))?.totals.works)
                })
            else { return false }
            (titles, counted) = (shown, total)
            return titles == [title] && total == works
        }
    }

    /// 6,000 works on 300 pages that never change; then record R on page 7 of crawl C, on page 1 of
    /// crawl N, and on C's page 7 again, newer each time, each of those pages with 20 works that
    /// never move; then one more page of one work.
    static var movedBackPages: [Page] {
        let request = { (crawl: String, number: Int) in
            PageRequest(
                crawlId: crawl, source: "oai-pmh", query: ["endpoint": "https://repo.example/oai"], page: number,
                pageSize: 21)
        }
        let bulk = (1...300).map { number in
            Page(
                request: request("bulk", number), total: 6_000,
                artworks: (0..<20).map { position in
                    let serial = (number - 1) * 20 + position
                    return Artwork(
                        objectNumber: "B-\(serial)", title: "Work \(serial)", artist: "Artist \(serial / 37)",
                        imageURL: nil, width: nil, height: nil, position: position, recordId: "oai:repo:B-\(serial)",
                        datestamp: "2026-12-04T00:00:00Z")
                })
        }
        let another = Page(
            request: request("bulk", 301), total: 6_001,
            artworks: [
                Artwork(
                    objectNumber: "B-6000", title: "Work 6000", artist: "Artist 162", imageURL: nil, width: nil,
                    height: nil, position: 0, recordId: "oai:repo:B-6000", datestamp: "2026-12-04T00:00:00Z")
            ])
        let moving = { (crawl: String, number: Int, title: String, second: Int) in
            IndexHistoryModelTests.movingPage(crawl, number, title: title, second: second, stills: 20)
        }
        return bulk + [moving("C", 7, "one", 1), moving("N", 1, "two", 2), moving("C", 7, "three", 3), another]
    }

    @Test(
        "one of three copies frozen (SIGSTOP) past its session while a harvest changes every title and drops a work from each page, then thawed: no file shows an old title or a dropped work again; at rest the bytes of one copy"
    )
    func frozenCopy() async throws {
        try await frozenCopy(try Setup())
    }

    @Test(
        "one of three copies frozen past its session while a harvest changes every title and drops works, publishing to a bucket on Ceph's gateway: no object shows an old title or a dropped work again",
        .enabled(if: S3TestStore.Kind.selected.contains(.cephGateway), "needs Ceph's gateway")
    )
    func frozenCopyOnCeph() async throws {
        try await Setup.onCeph { try await frozenCopy($0) }
    }

    private func frozenCopy(_ setup: Setup) async throws {
        // Every page first with its titles marked old and a work more; later the same pages as the
        // pure build has them: every title changes, and each page's extra work leaves the index.
        var dropped = 0
        let old = try setup.messages.map { record -> KafkaProducerRecord in
            guard record.topic == ArtpipeTopic.pages else { return record }
            var page = try MessageCodec.decode(
                Page.self,
                from: KafkaConsumerMessage(
                    topic: record.topic, partition: 0, offset: 0, key: record.key,
                    value: record.value, headers: record.headers))
            for index in page.artworks.indices { page.artworks[index].title += Self.oldMark }
            page.artworks.append(
                Artwork(
                    objectNumber: "DROPPED-\(dropped)", title: "Dropped \(dropped)\(Self.oldMark)",
                    artist: "Maker of dropped works", imageURL: nil, width: nil, height: nil,
                    position: page.artworks.count))
            dropped += 1
            return try MessageCodec.record(page, topic: ArtpipeTopic.pages)
        }
        try await setup.cluster.producer.send(old)
        let frozen = try setup.startWorker()
        let others = [try setup.startWorker(), try setup.startWorker()]
        defer {
            frozen.signal(SIGCONT)
            frozen.stop()
            for other in others { other.stop() }
        }
        try await waitUntil(
            "the three copies assigned, and every work shown with its old title", timeout: .seconds(90)
        ) {
            guard ([frozen] + others).allSatisfy({ $0.output.contains("partitions assigned") }),
                let files = await setup.published?.files
            else { return false }
            let lines = files.filter { $0.key.hasPrefix("works/") }.values.flatMap {
                $0.split(separator: UInt8(ascii: "\n"))
            }
            return lines.count == setup.index.totals.works + dropped
                && lines.allSatisfy { String(decoding: $0, as: UTF8.self).contains(Self.oldMark) }
        }
        frozen.signal(SIGSTOP)
        try await setup.cluster.producer.send(setup.messages)
        // The other copies take the frozen one's partitions once its session ends, and publish the
        // new titles without the dropped works.
        try await setup.waitForExpectedIndex(workers: others)
        let sampler = OldTitleSampler(store: setup.store)
        let sampling = Task { await sampler.run() }
        defer { sampling.cancel() }
        frozen.signal(SIGCONT)
        try await waitUntil("the thawed copy to notice its stall, and its fence to lift", timeout: .seconds(60)) {
            frozen.output.contains("stalled long enough") && frozen.output.contains("the stall's fence is over")
        }
        let readWhileFenced = await sampler.reads
        // Reads after the fence lifted: where a stale write would show.
        try await waitUntil("the sampler to read the output after the fence lifted", timeout: .seconds(60)) {
            await sampler.reads > readWhileFenced + 1
        }
        // Rejoined, it restores what it is given and publishes only that.
        try await setup.waitForExpectedIndex(workers: [frozen] + others)
        let seen = await sampler.finish()
        #expect(readWhileFenced > 0, "the sampler read the output while the copy was fenced")
        #expect(
            seen.old.isEmpty,
            "a file went back to an old title or a dropped work: \(seen.old.prefix(3)); \(frozen.logSummary())")
        await setup.cluster.shutdown()
    }

    static let oldMark = " (before the change)"

    @Test(
        "copies come and go (1 to 3, each replaced by a new one started first, one SIGKILLed, down to 1): no read ever shows fewer works; at rest the bytes of one copy"
    )
    func copiesComeAndGo() async throws {
        try await copiesComeAndGo(try Setup())
    }

    @Test(
        "three copies publishing to one bucket on Ceph's gateway come and go: no read ever shows fewer works; at rest the bytes of one copy",
        .enabled(if: S3TestStore.Kind.selected.contains(.cephGateway), "needs Ceph's gateway")
    )
    func copiesComeAndGoOnCeph() async throws {
        try await Setup.onCeph { try await copiesComeAndGo($0) }
    }

    private func copiesComeAndGo(_ setup: Setup) async throws {
        let half = setup.messages.count / 2
        try await setup.cluster.producer.send(Array(setup.messages.prefix(half)))
        let sampler = WorkCountSampler(store: setup.store)
        let sampling = Task { await sampler.run() }
        defer { sampling.cancel() }
        var copies = [try setup.startWorker()]
        defer { for copy in copies { copy.stop() } }
        try await waitUntil("the first copy to publish an index", timeout: .seconds(60)) {
            await setup.published?.files[IndexLayout.manifestPath] != nil
        }
        // A copy has joined once it logged an assignment of its own.
        func joined(_ copy: ChildProcess) async throws {
            try await waitUntil("a new copy to be assigned partitions", timeout: .seconds(60)) {
                copy.output.contains("partitions assigned")
            }
        }
        for _ in 0..<2 {
            copies.append(try setup.startWorker())
            try await joined(copies.last!)
        }
        try await setup.cluster.producer.send(Array(setup.messages.dropFirst(half)))
        // A rolling update: each copy replaced by a new one, started before the old one stops.
        for index in copies.indices {
            let replacement = try setup.startWorker()
            try await joined(replacement)
            copies[index].signal(SIGTERM)
            #expect(
                try await copies[index].waitForExit(timeout: .seconds(60)) == 0,
                "\(copies[index].exitedBySignal ? "signal" : "exit") \(copies[index].exitStatus): \(copies[index].outputTail(lines: 15)); \(copies[index].keptLog(as: "index-copy"))"
            )
            copies[index] = replacement
        }
        copies[1].signal(SIGKILL)
        _ = try await copies[1].waitForExit(timeout: .seconds(10))
        copies.remove(at: 1)
        copies.append(try setup.startWorker())
        try await joined(copies.last!)
        // Down to one.
        while copies.count > 1 {
            let leaving = copies.removeFirst()
            leaving.signal(SIGTERM)
            #expect(
                try await leaving.waitForExit(timeout: .seconds(60)) == 0,
                "\(leaving.exitedBySignal ? "signal" : "exit") \(leaving.exitStatus): \(leaving.outputTail(lines: 15)); \(leaving.keptLog(as: "index-copy"))"
            )
        }
        try await setup.waitForExpectedIndex()
        let seen = await sampler.finish()
        #expect(seen.reads > 20, "the sampler read the index throughout")
        #expect(seen.shrinks.isEmpty, "a read showed fewer works than an earlier one: \(seen.shrinks.prefix(3))")
        await setup.cluster.shutdown()
    }
}

/// Reads the output again and again, 20 ms apart, until finished.
protocol OutputSampling: Actor {
    var stopped: Bool { get }
    func sample() async
}

extension OutputSampling {
    func run() async {
        while !stopped, !Task.isCancelled {
            await sample()
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// Reads the published index again and again while copies change: the works `index.json`
/// counts and the work lines of `works/`, each of which must never go down while nothing is
/// deleted upstream.
actor WorkCountSampler: OutputSampling {
    let store: any OutputStore
    private(set) var stopped = false
    private var reads = 0
    private var most = (manifest: 0, lines: 0)
    private var shrinks: [String] = []
    /// Each count of work lines read that differs from the one before, for failure messages.
    private var changes: [String] = []

    init(store: any OutputStore) { self.store = store }

    /// Takes what the output holds now as the least any later read may show.
    func start() async { await sample() }

    func sample() async {
        let store = self.store
        // The store's calls block: off the cooperative pool.
        guard
            let (works, lines) = try? await offCooperativePool({
                let works = (try? PublishedIndex.manifest(in: store))?.totals.works
                var lines = 0
                for (path, _) in try IndexLayout.publishedVersions(in: store)
                where path.hasPrefix("works/") && path.hasSuffix(".jsonl") {
                    lines += (try store.read(path) ?? []).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                }
                return (works, lines)
            })
        else { return }
        if let works {
            if works < most.manifest { shrinks.append("index.json: \(works) after \(most.manifest)") }
            most.manifest = max(most.manifest, works)
        }
        if lines < most.lines { shrinks.append("works/: \(lines) lines after \(most.lines)") }
        if changes.last != "\(lines)" { changes.append("\(lines)") }
        most.lines = max(most.lines, lines)
        reads += 1
    }

    func finish() async -> (reads: Int, shrinks: [String], changes: [String]) {
        stopped = true
        await sample()
        return (reads, shrinks, changes)
    }
}

/// Reads the output's work lines and bucket pages again and again once they show only new
/// titles, and its manifest: any old title is a file gone back, and so is a manifest counting
/// fewer works than one read before.
actor OldTitleSampler: OutputSampling {
    let store: any OutputStore
    private(set) var stopped = false
    private(set) var reads = 0
    private var old: [String] = []
    private var mostWorks = 0

    init(store: any OutputStore) { self.store = store }

    func sample() async {
        let store = self.store
        guard
            let (found, works) = try? await offCooperativePool({ () -> ([String], Int?) in
                var found: [String] = []
                let works = (try? PublishedIndex.manifest(in: store))?.totals.works
                for (path, _) in try IndexLayout.publishedVersions(in: store)
                where path.hasPrefix("works/") || IndexLayout.bucket(ofFile: path) != nil {
                    let text = String(decoding: try store.read(path) ?? [], as: UTF8.self)
                    if text.contains(IndexWorkerProcessTests.oldMark) { found.append(path) }
                }
                return (found, works)
            })
        else { return }
        old += found
        if let works {
            if works < mostWorks { old.append("index.json: \(works) works after \(mostWorks)") }
            mostWorks = max(mostWorks, works)
        }
        reads += 1
    }

    func finish() async -> (reads: Int, old: [String]) {
        stopped = true
        await sample()
        return (reads, old)
    }
}
