import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@testable import IndexWorker

@Suite("Versioned records: the newest version wins, deletions remove")
struct RecordVersionsTests {
    static func harvestPage(
        _ crawl: String, _ number: Int, _ works: [(String, String, String)], deletions: [(String, String)] = []
    ) -> Page {
        let request = PageRequest(
            crawlId: crawl, source: "rijksmuseum-oai", query: ["from": crawl], page: number, pageSize: 200)
        let artworks = works.enumerated().map { position, work in
            Artwork(
                objectNumber: "OBJ-\(work.0)", title: work.2, artist: "Maker \(work.0)", imageURL: nil, width: nil,
                height: nil, position: position, recordId: "rec-\(work.0)", datestamp: work.1)
        }
        return Page(
            request: request, total: works.count, artworks: artworks,
            deletions: deletions.map { RecordDeletion(recordId: "rec-\($0.0)", datestamp: $0.1) })
    }

    static let pages = [
        harvestPage("full", 1, [("1", "2026-01-01T00:00:00Z", "one v1"), ("2", "2026-01-01T00:00:00Z", "two v1")]),
        harvestPage("full", 2, [("3", "2026-01-01T00:00:00Z", "three v1"), ("4", "2026-01-01T00:00:00Z", "four v1")]),
        // The incremental harvest: 1 revised, 2 deleted, 3 deleted then re-created later, 4 revised in the same second
        // as an older deletion arrives.
        harvestPage(
            "since", 1, [("1", "2026-02-01T00:00:00Z", "one v2"), ("3", "2026-03-01T00:00:00Z", "three v3")],
            deletions: [("2", "2026-02-01T00:00:00Z"), ("3", "2026-02-15T00:00:00Z"), ("4", "2025-12-31T00:00:00Z")]),
    ]

    static func titles(_ index: ArtistIndex) -> [String: String] {
        Dictionary(uniqueKeysWithValues: index.artists.flatMap(\.works).map { ($0.objectNumber, $0.title) })
    }

    @Test("revisions replace, deletions as new or newer remove, older deletions do not")
    func rule() {
        var inputs = IndexInputs()
        for page in Self.pages { inputs.add(page) }
        let index = ArtistIndex.build(from: inputs)
        #expect(Self.titles(index) == ["OBJ-1": "one v2", "OBJ-3": "three v3", "OBJ-4": "four v1"])
        #expect(index.totals.works == 3)
        let one = index.artists.flatMap(\.works).first { $0.objectNumber == "OBJ-1" }
        #expect(one?.recordId == "rec-1" && one?.datestamp == "2026-02-01T00:00:00Z")
    }

    @Test("a deletion in the same second as a version removes it")
    func deletionWinsTies() {
        var inputs = IndexInputs()
        inputs.add(Self.harvestPage("a", 1, [("9", "2026-05-05T05:05:05Z", "nine")]))
        inputs.add(Self.harvestPage("b", 1, [], deletions: [("9", "2026-05-05T05:05:05Z")]))
        #expect(ArtistIndex.build(from: inputs).totals.works == 0)
    }

    @Test("the same bytes in every order, with duplicates", arguments: 0..<6)
    func orderInsensitive(seed: Int) throws {
        var reference = IndexInputs()
        for page in Self.pages { reference.add(page) }
        let expected = IndexLayout.files(for: ArtistIndex.build(from: reference))
        var generator = SampleRandom(seed: UInt64(seed))
        var shuffled = IndexInputs()
        for page in (Self.pages + Self.pages).shuffled(using: &generator) { shuffled.add(page) }
        #expect(IndexLayout.files(for: ArtistIndex.build(from: shuffled)) == expected)
    }
}

@Suite("Dead letters the index reads")
struct FailedRequestTests {
    static func deadLetter(page: String) -> KafkaConsumerMessage {
        let json =
            "{\"v\":1,\"pageId\":\"x:y:1\",\"crawlId\":\"c\",\"source\":\"rijksmuseum\",\"query\":{},"
            + "\"page\":\(page),\"pageSize\":100}"
        return KafkaConsumerMessage(
            topic: ArtpipeTopic.deadLetters, partition: 0, offset: 0, key: Array("x:y:1".utf8), value: Array(json.utf8),
            headers: [
                KafkaHeader(MessageCodec.schemaHeader, "page-request/1"),
                KafkaHeader(DeadLetter.sourceTopicHeader, ArtpipeTopic.pageRequests),
                KafkaHeader(DeadLetter.errorHeader, "HTTP 500"),
            ])
    }

    @Test("a dead-lettered request with a huge page number is skipped, never a gap list that long")
    func hugePage() throws {
        let handler = IndexMessageHandler(
            store: try IndexStateStore(
                outputDirectory: FileManager.default.temporaryDirectory.appendingPathComponent(
                    UniqueName.make("index")),
                logger: .test))
        guard case .other = try handler.decode(Self.deadLetter(page: "9223372036854775807")) else {
            Issue.record("a page number out of range became a failed page")
            return
        }
        guard case .failedRequest(let request, let reason) = try handler.decode(Self.deadLetter(page: "4")) else {
            Issue.record("a valid dead-lettered request was not read")
            return
        }
        #expect(request.page == 4 && reason == "HTTP 500")
    }
}

@Suite("Gallery escaping")
struct GalleryEscapingTests {
    @Test(
        "quotes and angle brackets are escaped even when a combining mark follows them",
        arguments: ["\"\u{301} onmouseover=\"alert(1)", "'\u{20DD}><script>alert(1)</script>", "<\u{338}img src=x>"])
    func combiningMarks(hostile: String) {
        var html = HTMLText()
        html.text(hostile)
        let escaped = String(decoding: html.bytes, as: UTF8.self)
        for raw: Unicode.Scalar in ["\"", "'", "<", ">"] {
            #expect(!escaped.unicodeScalars.contains(raw), "\(raw) left raw in \(escaped.debugDescription)")
        }
        #expect(
            escaped.unicodeScalars.contains("\u{301}") || escaped.unicodeScalars.contains("\u{20DD}")
                || escaped.unicodeScalars.contains("\u{338}"), "the combining mark is kept")
    }
}

@Suite("Index state during a re-read")
struct IndexStateRereadTests {
    static func message(offset: Int64, title: String) throws -> (KafkaConsumerMessage, Page) {
        let request = PageRequest(crawlId: "c", source: "rijksmuseum", query: [:], page: 1, pageSize: 1)
        let page = Page(
            request: request, total: 1,
            artworks: [
                Artwork(
                    objectNumber: "SK-A-1", title: title, artist: "A", imageURL: nil, width: nil, height: nil,
                    position: 0)
            ])
        let record = try MessageCodec.record(page, topic: ArtpipeTopic.pages)
        return (
            KafkaConsumerMessage(
                topic: ArtpipeTopic.pages, partition: 0, offset: offset, key: record.key, value: record.value,
                headers: record.headers),
            page
        )
    }

    /// Applies the page `message(offset:title:)` makes and writes the state; expects a write.
    static func applyAndFlush(_ store: IndexStateStore, offset: Int64, title: String) throws {
        let (message, page) = try message(offset: offset, title: title)
        store.apply(message, pageId: page.pageId) { $0.add(page) }
        #expect(try store.flush())
    }

    /// A new output folder, and the partition the tests apply to.
    static func scratch(_ label: String) -> (output: URL, partition: KafkaTopicPartition) {
        (
            FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make(label)),
            KafkaTopicPartition(topic: ArtpipeTopic.pages, partition: 0)
        )
    }

    @Test("a shard replaced on disk is decoded again, even at the same size and modification time; others are kept")
    func replacedShardIsDecodedAgain() throws {
        let (output, partition) = IndexStateRereadTests.scratch("redecode")
        let writer = try IndexStateStore(outputDirectory: output, logger: .test)
        let reader = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = writer.startOffset(for: partition)
        let (first, firstPage) = try Self.message(offset: 1, title: "first")
        writer.apply(first, pageId: firstPage.pageId) { $0.add(firstPage) }
        #expect(try writer.flush())
        #expect(try reader.inputsOnDisk().pages.values.first?.artworks.first?.title == "first")
        let shard = writer.directory.appendingPathComponent(
            IndexShard.partFileName(ArtpipeTopic.pages, 0, IndexShard.part(of: firstPage.pageId))
        ).path
        var before = stat()
        #expect(stat(shard, &before) == 0)

        // Same length, same offset digits: the same size; then the old modification time put back.
        let (later, laterPage) = try Self.message(offset: 2, title: "later")
        writer.apply(later, pageId: laterPage.pageId) { $0.add(laterPage) }
        #expect(try writer.flush())
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, shard, &times, 0) == 0)
        var after = stat()
        #expect(stat(shard, &after) == 0)
        #expect(after.st_size == before.st_size)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(try reader.inputsOnDisk().pages.values.first?.artworks.first?.title == "later")
        // Unchanged since: the same inputs again.
        #expect(try reader.inputsOnDisk().pages.values.first?.artworks.first?.title == "later")
    }

    @Test("a re-read interrupted by a SIGKILL: the newer version is read again, not skipped")
    func interruptedReread() throws {
        let (output, partition) = IndexStateRereadTests.scratch("reread")
        let store = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = store.startOffset(for: partition)
        let older = try Self.message(offset: 2, title: "older")
        let newer = try Self.message(offset: 8, title: "newer")
        for (message, page) in [older, newer] { store.apply(message, pageId: page.pageId) { $0.add(page) } }
        #expect(try store.flush())

        // A replay from offset 0 gets as far as the older version, is flushed, and is killed.
        let replaying = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(replaying.startOffset(for: partition, committed: 0) == 0)
        replaying.apply(older.0, pageId: older.1.pageId) { $0.add(older.1) }
        #expect(try replaying.flush())

        let restarted = try IndexStateStore(outputDirectory: output, logger: .test)
        let start = restarted.startOffset(for: partition)
        #expect(start <= 8, "starts at \(start): the newer version at offset 8 would never be applied again")
        #expect(try restarted.inputsOnDisk().pages.values.first?.artworks.first?.title == "older")
    }
}

@Suite("Unreadable index shards")
struct UnreadableShardTests {
    @Test(
        "a shard file that does not decode is quarantined, not fatal; its owner writes it again and a new owner reads from the start"
    )
    func quarantined() throws {
        let (output, partition) = IndexStateRereadTests.scratch("quarantine")
        let owner = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = owner.startOffset(for: partition)
        let (message, page) = try IndexStateRereadTests.message(offset: 5, title: "kept")
        owner.apply(message, pageId: page.pageId) { $0.add(page) }
        #expect(try owner.flush())
        let shardFile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: owner.directory.path).first { $0.hasSuffix(".json") })
        try Data("{not a shard".utf8).write(to: owner.directory.appendingPathComponent(shardFile))

        // Another instance merging the shards: the bad file is moved aside, the merge goes on.
        let other = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(try other.inputsOnDisk().pages.isEmpty)
        let quarantine = owner.directory.appendingPathComponent("quarantine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: quarantine.path).count == 1)
        // The owner still holds the partition: its next flush writes the shard again.
        #expect(try owner.flush())
        #expect(try other.inputsOnDisk().pages.values.first?.artworks.first?.title == "kept")

        // A shard that does not decode when a new owner is assigned: read from the start.
        try Data("{still not".utf8).write(to: owner.directory.appendingPathComponent(shardFile))
        let newOwner = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(newOwner.startOffset(for: partition) == KafkaConsumerConfiguration.beginningOffset)
        #expect(try FileManager.default.contentsOfDirectory(atPath: quarantine.path).count == 2)
    }
}

@Suite("Lost partitions")
struct LostPartitionTests {
    @Test("a lost partition's shard is not written by its old owner over the new owner's")
    func lostNotWritten() throws {
        let (output, partition) = IndexStateRereadTests.scratch("lost")
        let oldOwner = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = oldOwner.startOffset(for: partition)
        let (stale, stalePage) = try IndexStateRereadTests.message(offset: 3, title: "old owner's")
        oldOwner.apply(stale, pageId: stalePage.pageId) { $0.add(stalePage) }

        // The old owner's session ended; the new owner has moved on and written its shard.
        let newOwner = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = newOwner.startOffset(for: partition)
        let (newer, newerPage) = try IndexStateRereadTests.message(offset: 7, title: "new owner's")
        newOwner.apply(newer, pageId: newerPage.pageId) { $0.add(newerPage) }
        #expect(try newOwner.flush())

        oldOwner.revoke([partition], lost: true)
        #expect(try newOwner.inputsOnDisk().pages.values.first?.artworks.first?.title == "new owner's")
        #expect(try !oldOwner.flush(), "nothing of the lost partition is left to write")
    }

    @Test(
        "an old owner not yet told that its session expired writes nothing over the new owner's state, however long it goes on"
    )
    func fencedBeforeItKnows() throws {
        let (output, partition) = IndexStateRereadTests.scratch("fenced")
        let oldOwner = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = oldOwner.startOffset(for: partition)
        try IndexStateRereadTests.applyAndFlush(oldOwner, offset: 2, title: "old owner's, written in time")

        // Kafka hands the partition over; the new owner starts from what the old one had written.
        let newOwner = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(newOwner.startOffset(for: partition) == 3)
        let (newer, newerPage) = try IndexStateRereadTests.message(offset: 7, title: "new owner's")
        newOwner.apply(newer, pageId: newerPage.pageId) { $0.add(newerPage) }
        #expect(try newOwner.flush())

        // The old owner has not polled since: it still applies, and its writer still flushes.
        let (stale, stalePage) = try IndexStateRereadTests.message(offset: 3, title: "old owner's, too late")
        oldOwner.apply(stale, pageId: stalePage.pageId) { $0.add(stalePage) }
        #expect(try !oldOwner.flush(), "the new owner's claim fences it")
        oldOwner.apply(stale, pageId: stalePage.pageId) { $0.add(stalePage) }
        #expect(try !oldOwner.flush())
        #expect(try newOwner.inputsOnDisk().pages.values.first?.artworks.first?.title == "new owner's")
        let reader = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(reader.startOffset(for: partition) == 8, "the offset on disk is the new owner's")
    }
}

@Suite("Publishing with several instances")
struct StalePublishTests {
    @Test("files overwritten with an older build by an instance that then died are put right by a live one")
    func staleOverwriteCorrected() throws {
        let (output, partition) = IndexStateRereadTests.scratch("publish")
        let store = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = store.startOffset(for: partition)
        let publisher = IndexPublisher(outputDirectory: output, store: store)
        func published() throws -> PublishedFiles {
            try #require(PublishedFiles(in: output, paths: IndexLayout.publishedPaths(in: output)))
        }

        try IndexStateRereadTests.applyAndFlush(store, offset: 1, title: "first")
        #expect(try publisher.publish() > 0)
        let older = try published()
        try IndexStateRereadTests.applyAndFlush(store, offset: 2, title: "second")
        #expect(try publisher.publish() > 0)
        let newest = try published()
        let changed = newest.differences(from: older)
        #expect(!changed.isEmpty && !changed.contains(IndexLayout.manifestPath), "a title is not in the manifest")

        // Another instance, which had read the shards before the second write, publishes last and dies.
        for path in changed { try Data(older.files[path]!).write(to: output.appendingPathComponent(path)) }
        #expect(publisher.changedSinceLastBuild(), "the live instance notices the files changed under it")
        #expect(try publisher.publish() == changed.count)
        #expect(try published() == newest)
        #expect(!publisher.changedSinceLastBuild())
        #expect(try publisher.publish() == 0)
    }
}

@Suite("Reading the state beside a publisher")
struct ReadingBesidePublisherTests {
    @Test("reading the inputs on disk does not hide a change from the publisher of the same store")
    func changeStillPublished() throws {
        let (output, partition) = IndexStateRereadTests.scratch("beside")
        let store = try IndexStateStore(outputDirectory: output, logger: .test)
        _ = store.startOffset(for: partition)
        let publisher = IndexPublisher(outputDirectory: output, store: store)
        try IndexStateRereadTests.applyAndFlush(store, offset: 1, title: "first")
        #expect(try publisher.publish() > 0)

        try IndexStateRereadTests.applyAndFlush(store, offset: 2, title: "second")
        #expect(try store.inputsOnDisk().pages.values.first?.artworks.first?.title == "second")
        #expect(try publisher.publish() > 0)
        let line = try PublishedIndex.read(from: output).index.artists.first?.works.first
        #expect(line?.title == "second")
    }
}

@Suite("Merging shards after a partition-count change")
struct PartitionCountChangeTests {
    static func message(_ page: Page, partition: Int32, offset: Int64, producedAt: Int64) throws -> KafkaConsumerMessage
    {
        let record = try MessageCodec.record(page, topic: ArtpipeTopic.pages)
        return KafkaConsumerMessage(
            topic: ArtpipeTopic.pages, partition: partition, offset: offset, key: record.key, value: record.value,
            headers: record.headers, timestampMilliseconds: producedAt)
    }

    @Test(
        "one page in two partitions' shards: the merge keeps the newest input, whichever shard file sorts first",
        arguments: [(Int32(0), Int32(5)), (Int32(5), Int32(0))])
    func newestInputWins(olderPartition: Int32, newerPartition: Int32) async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("repartition"))
        let store = try IndexStateStore(outputDirectory: output, logger: .test)
        let handler = IndexMessageHandler(store: store)
        let (_, older) = try IndexStateRereadTests.message(offset: 0, title: "older")
        let (_, newer) = try IndexStateRereadTests.message(offset: 0, title: "newer")
        // The page's key hashed to another partition once the topic had more of them.
        for (page, partition, producedAt) in [(older, olderPartition, 1_000), (newer, newerPartition, 2_000)] {
            let message = try Self.message(page, partition: partition, offset: 3, producedAt: Int64(producedAt))
            _ = store.startOffset(for: KafkaTopicPartition(topic: ArtpipeTopic.pages, partition: partition))
            _ = try await handler.handle(
                try handler.decode(message), context: MessageContext(message: message, attempt: 1, logger: .test))
        }
        #expect(try store.flush())
        let merged = try IndexStateStore(outputDirectory: output, logger: .test).inputsOnDisk()
        #expect(merged.pages.values.first?.artworks.first?.title == "newer")
    }
}

@Suite("Index state of the earlier form")
struct WholePartitionStateTests {
    @Test("a whole-partition shard file is read, cut into parts on the next flush, and removed; its offset is kept")
    func upgraded() throws {
        let (output, partition) = IndexStateRereadTests.scratch("upgrade")
        let store = try IndexStateStore(outputDirectory: output, logger: .test)
        var whole = IndexShard(topic: ArtpipeTopic.pages, partition: 0, offset: 7)
        let pages = (1...20).map { number in
            ArtistIndexTests.page(
                number, [RecordVersionsTests.harvestPage("x", number, [("\(number)", "2026", "t")]).artworks[0]])
        }
        for page in pages { whole.inputs.add(page, producedAt: 5) }
        let wholeFile = store.directory.appendingPathComponent(whole.fileName)
        try JSONEncoder().encode(whole).write(to: wholeFile)

        #expect(store.startOffset(for: partition) == 8)
        #expect(try store.inputsOnDisk() == whole.inputs)
        #expect(try store.flush())
        #expect(!FileManager.default.fileExists(atPath: wholeFile.path))
        let parts = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter {
            IndexShard.part(ofFile: $0, ArtpipeTopic.pages, 0) != nil
        }
        #expect(parts.count == Set(pages.map { IndexShard.part(of: $0.pageId) }).count && parts.count > 1)

        let restarted = try IndexStateStore(outputDirectory: output, logger: .test)
        #expect(restarted.startOffset(for: partition) == 8)
        #expect(try restarted.inputsOnDisk() == whole.inputs)
        #expect(try !restarted.flush(), "nothing changed")
    }
}
