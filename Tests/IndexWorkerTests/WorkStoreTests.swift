import ArtpipeRuntime
import ArtpipeSupport
import ArtpipeTestKit
import EmbeddedStore
import Foundation
import KafkaClient
import NIOPosix
import ObjectStorage
import PipelineContract
import StreamTasks
import Testing

@testable import IndexWorker

@Suite("The index's state on a copy's own disk")
struct WorkStoreTests {
    @Test(
        "rows through the store write what they write through the in-memory partition, whatever their order; a new assignment starts its partition empty"
    )
    func sameAsInMemory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("work-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A pool of its own: the shared one also runs other tests' libvips and Kafka calls.
        try await NIOThreadPool.withPool(threads: 1) { pool in try await Self.sameAsInMemory(in: folder, pool: pool) }
    }

    @Test(
        "sealed at a clean stop, the store names only the partitions whose every change was acknowledged, at the later of its restore and its writes; kept, such a partition keeps its works, the others begin empty"
    )
    func sealNamesSettledPartitions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("work-seal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await NIOThreadPool.withPool(threads: 1) { pool in
            let shards = IndexShards(count: 4)
            let work = WorkKey(source: "oai", id: "oai:1", isRecord: true)
            let row = WorkRowsTests.version("p1", datestamp: "2026-02-01T00:00:00Z", image: nil)
            // The first store let go before the file is opened again: it holds the file's lock. The
            // pool's thread may still hold its last call, and so the store, a moment after that
            // call answered: the file is opened once SQLite no longer says it is locked.
            let sealed = try await Self.sealedStore(in: folder, shards: shards, pool: pool, work: work, row: row)
            var opened: WorkStore?
            try await waitUntil("the sealed store to let go of its file", timeout: .seconds(30)) {
                do {
                    opened = try WorkStore(
                        folder: folder, shards: shards, cacheBytes: 64 << 10, threadPool: pool,
                        kept: StoreCheckpoint(
                            cluster: nil, topic: ArtpipeTopic.indexWorksState, partitionCount: 4, written: Date(),
                            fileBytes: sealed.fileBytes, partitions: sealed.partitions))
                    return true
                } catch let error as SQLiteError where error.code == 5 {
                    return false
                }
            }
            let kept = try #require(opened)
            #expect(try await kept.beginRestore(of: 0, under: AssignmentEpoch(1)).resumeOffset == 10)
            #expect(try await kept.count(in: 0) == 1)
            #expect(try await kept.beginRestore(of: 1, under: AssignmentEpoch(1)).resumeOffset == 0)
            #expect(try await kept.count(in: 1) == 0, "not named: begun empty")
        }
    }

    private static func sealedStore(
        in folder: URL, shards: IndexShards, pool: NIOThreadPool, work: WorkKey, row: WorkRow
    ) async throws -> (partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64) {
        let store = try WorkStore(folder: folder, shards: shards, cacheBytes: 64 << 10, threadPool: pool)
        for partition in 0..<3 {
            try await store.beginRestore(of: partition, under: AssignmentEpoch(1)).finish()
        }
        for (partition, offset) in [(0, 5), (1, 7)] {
            _ = try await store.apply(
                to: partition, epoch: AssignmentEpoch(1), offset: Int64(offset), work: work, key: row.key(of: work),
                row: row)
        }
        // Partition 0's row acknowledged, 1's not; 2 had none.
        store.settled(0, upTo: 6)
        // Partition 3's restore fails on a row it cannot read, at offset 4: it shows nothing past it.
        let restore = try await store.beginRestore(of: 3, under: AssignmentEpoch(1))
        #expect(throws: (any Error).self) {
            try restore.restore(
                KafkaConsumerMessage(
                    topic: ArtpipeTopic.indexWorksState, partition: 3, offset: 4, key: Array("x".utf8), value: [0xFF]))
        }
        let sealed = try await store.seal(acknowledged: [10, 20, 0, 0])
        #expect(
            sealed.partitions == [
                0: .init(offset: 10, linesSent: 0), 2: .init(offset: 0, linesSent: 0),
                3: .init(offset: 0, linesSent: 0),
            ])
        await #expect(throws: SQLiteError.self) {
            try await store.apply(
                to: 0, epoch: AssignmentEpoch(1), offset: 8, work: work, key: row.key(of: work), row: row)
        }
        return sealed
    }

    static func sameAsInMemory(in folder: URL, pool: NIOThreadPool) async throws {
        let shards = IndexShards(count: 4)
        // A small cache: most reads go to the file, not to SQLite's pages in memory.
        let store = try WorkStore(folder: folder, shards: shards, cacheBytes: 64 << 10, threadPool: pool)
        var memory = [WorkPartition(shards: shards), WorkPartition(shards: shards)]
        var random = SplitMix(seed: 7)
        let works = (0..<40).map { WorkKey(source: "oai", id: "oai:é/\($0)", isRecord: $0 % 4 != 0) }
        var applied = 0
        for _ in 0..<3_000 {
            let work = works[random.next(works.count)]
            let partition = work.partition(of: 2)
            let pageId = "p\(random.next(4))"
            let image = "https://img/\(random.next(3)).jpg"
            let row: WorkRow
            if random.next(3) == 0 {
                row = WorkRowsTests.thumbnails(image, [.ok, .failed, .noImage][random.next(3)], page: pageId)
            } else {
                let datestamp = "2026-01-0\(1 + random.next(5))T00:00:00Z"
                row = .version(
                    WorkVersion(
                        pageId: pageId, crawlId: "c", page: 1 + random.next(3),
                        artwork: Artwork(
                            objectNumber: work.isRecord ? "SK-A-1" : work.id, title: "t\(random.next(9))",
                            artist: "Maker \(random.next(5))", imageURL: image, width: nil, height: nil, position: 0,
                            recordId: work.isRecord ? work.id : nil, datestamp: work.isRecord ? datestamp : nil)))
            }
            let key = row.key(of: work)
            // Now and then a tombstone of the key instead.
            let value: WorkRow? = random.next(8) == 0 ? nil : row
            let before = memory[partition].works[work]?.rows
            let expected = memory[partition].apply(work, key: key, row: value)
            let got = try await store.apply(
                to: partition, epoch: AssignmentEpoch(1), offset: Int64(applied), work: work, key: key, row: value)
            #expect(got.writes == expected && got.rewritten.isEmpty, "row \(applied): \(key)")
            // The state the changelog hears: the work's rows when they changed, empty when it is gone.
            let after = memory[partition].works[work]?.rows
            #expect(got.state?.rows == (after == before ? nil : after ?? WorkRows(work: work)), "row \(applied)")
            applied += 1
        }
        for partition in 0..<2 {
            #expect(try await store.count(in: partition) == memory[partition].works.count)
            #expect(memory[partition].works.count > 0)
        }
        // Partition 0 assigned again: read from its start, it begins empty; partition 1 keeps its works.
        let work = try #require(works.first { $0.partition(of: 2) == 0 })
        let row = WorkRowsTests.version("p9", datestamp: "2026-02-01T00:00:00Z", image: nil)
        _ = try await store.apply(
            to: 0, epoch: AssignmentEpoch(2), offset: 0, work: work, key: row.key(of: work), row: row)
        #expect(try await store.count(in: 0) == 1)
        #expect(try await store.count(in: 1) == memory[1].works.count)
    }

    @Test(
        "a partition restored from the state rows it sent is the state it had: a row a work's state shows already changes nothing, a later one writes what it wrote before; the works changed since the last mark of lines sent are written again whole, first; the mark moves once that is settled; a row of another version's format fails the restore"
    )
    func restoredFromItsChangelog() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("work-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await NIOThreadPool.withPool(threads: 1) { pool in
            try await Self.restoredFromItsChangelog(in: folder, pool: pool)
        }
    }

    static func restoredFromItsChangelog(in folder: URL, pool: NIOThreadPool) async throws {
        let shards = IndexShards(count: 4)
        let store = try WorkStore(folder: folder, shards: shards, cacheBytes: 1 << 20, threadPool: pool)
        var random = SplitMix(seed: 3)
        let works = (0..<300).map { WorkKey(source: "oai", id: "oai:r/\($0)", isRecord: true) }
        let rows: [(work: WorkKey, row: WorkRow)] = (0..<400).map { offset in
            let work = works[random.next(works.count)]
            let row = WorkRow.version(
                WorkVersion(
                    pageId: "p\(random.next(3))", crawlId: "c", page: 1,
                    artwork: Artwork(
                        objectNumber: "SK-\(work.id)", title: "t\(offset)", artist: "Maker \(random.next(6))",
                        imageURL: nil, width: nil, height: nil, position: 0, recordId: work.id,
                        datestamp: "2026-01-01T00:\(String(format: "%02d", offset % 60)):00Z")))
            return (work, row)
        }
        // Handled under one assignment: each change's state row is what the changelog holds.
        var changelog: [KafkaConsumerMessage] = []
        var written: [Int: WorkStore.Change] = [:]
        for (offset, (work, row)) in rows.enumerated() {
            let change = try await store.apply(
                to: 0, epoch: AssignmentEpoch(1), offset: Int64(offset), work: work, key: row.key(of: work), row: row)
            written[offset] = change
            guard let state = change.state else { continue }
            let record = IndexTopicRecords.record(state, partition: 0, inputOffset: Int64(offset))
            changelog.append(
                KafkaConsumerMessage(
                    topic: record.topic, partition: 0, offset: Int64(changelog.count), key: record.key,
                    value: record.value, headers: record.headers, isTombstone: record.isTombstone))
        }
        // A crash: the lines are known sent below 200 (the mark); the state rows of the last 50
        // input rows never landed.
        var landed: [KafkaConsumerMessage] = []
        var lastChange: [WorkKey: Int64] = [:]
        for message in changelog {
            guard case .work(let work, _, let offset) = try IndexTopicRecords.workStateRow(message, shards: shards),
                offset < 350
            else { continue }
            landed.append(message)
            lastChange[work] = offset
            if offset == 150 || offset == 151 {
                let mark = IndexTopicRecords.linesSent(offset == 150 ? 120 : 200, partition: 0)
                landed.append(
                    KafkaConsumerMessage(
                        topic: mark.topic, partition: 0, offset: -1, key: mark.key, value: mark.value,
                        headers: mark.headers))
            }
        }
        #expect(landed.count < changelog.count + 2)
        let unsure = Set(lastChange.filter { $0.value >= 200 }.keys)
        let restore = try await store.beginRestore(of: 0, under: AssignmentEpoch(2))
        for message in landed { try restore.restore(message) }
        try await restore.finish()
        // Delivered again from the committed offset: the first row writes the unsure works
        // again, whole (the line in one shard at most, a tombstone in every other); the mark
        // moves once this copy settled past it.
        var rewritten: [WorkKey: Int] = [:]
        for (offset, (work, row)) in rows.enumerated().dropFirst(200) {
            if offset == 260 { store.settled(0, upTo: 250) }
            let again = try await store.apply(
                to: 0, epoch: AssignmentEpoch(2), offset: Int64(offset), work: work, key: row.key(of: work), row: row)
            for write in again.rewritten where write.row != nil { rewritten[write.work, default: 0] += 1 }
            // Their states too, each as its row named it.
            #expect(
                again.restated.map(\.state.rows.work).sorted { $0.description < $1.description }
                    == (offset == 200 ? unsure.sorted { $0.description < $1.description } : []))
            #expect(again.restated.allSatisfy { lastChange[$0.state.rows.work] == $0.inputOffset })
            #expect(again.rewritten.count % shards.count == 0)
            #expect(again.rewritten.isEmpty || offset == 200, "offset \(offset)")
            #expect(again.linesSent == (offset == 260 ? 250 : nil), "offset \(offset)")
            let first = try #require(written[offset])
            if offset < 350 {
                #expect(again.writes == WorkState.Writes() && again.state == nil, "offset \(offset)")
            } else {
                #expect(again.writes == first.writes, "offset \(offset)")
                #expect(again.state?.rows == first.state?.rows, "offset \(offset)")
            }
        }
        #expect(rewritten.values.allSatisfy { $0 == 1 } && Set(rewritten.keys) == unsure && unsure.count > 10)
        // Outputs lost (a record refused): the next row writes the unsure works again, gone
        // ones among them; lost again, that rewrite's outputs leave the mark where it is.
        #expect(store.outputsLost(in: 0, at: 398) == false)
        let (work, row) = rows[399]
        let afterLoss = try await store.apply(
            to: 0, epoch: AssignmentEpoch(2), offset: 399, work: work, key: row.key(of: work), row: row)
        #expect(!afterLoss.restated.isEmpty && afterLoss.rewritten.count == afterLoss.restated.count * shards.count)
        #expect(store.outputsLost(in: 0, at: 399) == true)
        store.settled(0, upTo: 400)
        let held = try await store.apply(
            to: 0, epoch: AssignmentEpoch(2), offset: 399, work: work, key: row.key(of: work), row: row)
        #expect(held.restated.isEmpty && held.linesSent == nil)
        // A row that would make a work's state too large is refused for good; the state stays.
        let huge = WorkRow.version(
            WorkVersion(
                pageId: "p9", crawlId: "c", page: 1,
                artwork: Artwork(
                    objectNumber: "SK-\(work.id)", title: String(repeating: "t", count: WorkStore.maximumStateBytes),
                    artist: "Maker", imageURL: nil, width: nil, height: nil, position: 0, recordId: work.id,
                    datestamp: "2026-02-01T00:00:00Z")))
        let before = try await store.count(in: 0)
        let tooLarge = await #expect(throws: WorkStateTooLarge.self) {
            try await store.apply(
                to: 0, epoch: AssignmentEpoch(2), offset: 400, work: work, key: huge.key(of: work), row: huge)
        }
        #expect(tooLarge?.failureClass == .forGood && tooLarge?.description.contains("refused") == true)
        #expect(try await store.count(in: 0) == before)
        // Applied together, rows stop at the refused one: those before it applied, none after it.
        let (first, second) = (
            WorkKey(source: "oai", id: "https://id.example/together-1", isRecord: true),
            WorkKey(source: "oai", id: "https://id.example/together-2", isRecord: true)
        )
        let listed = WorkRowsTests.version("p9", datestamp: "2026-02-01T00:00:00Z", image: nil)
        let together = await store.apply(
            to: 0, epoch: AssignmentEpoch(2),
            rows: [
                .init(offset: 401, work: first, key: listed.key(of: first), row: listed),
                .init(offset: 402, work: work, key: huge.key(of: work), row: huge),
                .init(offset: 403, work: second, key: listed.key(of: second), row: listed),
            ])
        #expect(together.changes.count == 1 && together.changes[0].state != nil)
        #expect(together.failure is WorkStateTooLarge, "\(String(describing: together.failure))")
        #expect(try await store.count(in: 0) == before + 1)
        // A state in a format this version does not read fails the restore: left out, it would lose its work.
        let readable = try #require(landed.first { !$0.isTombstone })
        let later = KafkaConsumerMessage(
            topic: readable.topic, partition: 0, offset: readable.offset, key: readable.key,
            value: [0x7f] + readable.value, headers: readable.headers, isTombstone: false)
        let failing = try await store.beginRestore(of: 0, under: AssignmentEpoch(3))
        let error = #expect(throws: IndexTopicRecordError.self) { try failing.restore(later) }
        #expect(error?.failureClass == .forGood)
    }

    @Test(
        "a work gone whose outputs were lost is taken back again: tombstones in every shard, its empty state restated")
    func goneAndLost() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("work-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await NIOThreadPool.withPool(threads: 1) { pool in
            let shards = IndexShards(count: 3)
            let store = try WorkStore(folder: folder, shards: shards, cacheBytes: 1 << 20, threadPool: pool)
            let (gone, other) = (Self.record, WorkKey(source: "oai", id: "oai:r/2", isRecord: true))
            let row = WorkRowsTests.version("p1", datestamp: "2026-01-01T00:00:00Z", image: nil)
            let epoch = AssignmentEpoch(1)
            _ = try await store.apply(to: 0, epoch: epoch, offset: 0, work: gone, key: row.key(of: gone), row: row)
            store.settled(0, upTo: 1)
            let taken = try await store.apply(
                to: 0, epoch: epoch, offset: 1, work: gone, key: row.key(of: gone), row: nil)
            #expect(taken.state?.isEmpty == true && taken.writes.artists.contains { $0.row == nil })
            // Its line's tombstone refused: the next row takes it back again, in every shard.
            #expect(store.outputsLost(in: 0, at: 1) == false)
            let next = try await store.apply(
                to: 0, epoch: epoch, offset: 2, work: other, key: row.key(of: other), row: row)
            let restated = try #require(next.restated.first { $0.state.rows.work == gone })
            #expect(restated.state.isEmpty && restated.inputOffset == 1)
            #expect(Set(next.rewritten.filter { $0.work == gone }.map(\.shard)) == Set(0..<3))
            #expect(next.rewritten.filter { $0.work == gone }.allSatisfy { $0.row == nil })
            #expect(try await store.count(in: 0) == 1)
        }
    }

    @Test(
        "pages through the entries' file write what they write in memory, to the same summary, kept between changes; a partition taken anew starts empty, and a late change of its earlier assignment stays out of it"
    )
    func pagesOnDisk() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("page-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await NIOThreadPool.withPool(threads: 1) { pool in
            try await pool.runIfActive { try Self.pagesOnDisk(file: folder.appendingPathComponent("pages.sqlite")) }
        }
    }

    static func pagesOnDisk(file url: URL) throws {
        // A small cache: most reads go to the file.
        let file = try PageEntryFile(path: url.path, cacheBytes: 64 << 10)
        let earlier = try file.table(of: 0)
        var onDisk = PagePartition(partition: 0, entries: earlier)
        var inMemory = PagePartition(partition: 0)
        var random = SplitMix(seed: 11)
        for step in 0..<600 {
            let number = 1 + random.next(6)
            let crawl = "crawl-\(random.next(2))"
            let artworks = (0..<random.next(5)).map {
                Artwork(
                    objectNumber: "SK-\(number)-\($0 + random.next(3))", title: "t", artist: "Maker \(random.next(4))",
                    imageURL: random.next(3) == 0 ? nil : "https://img/\(number)-\($0)-\(random.next(2)).jpg",
                    width: nil, height: nil, position: $0)
            }
            let page = ArtistIndexTests.page(number, artworks, crawl: crawl)
            let request = PageRequest(
                crawlId: page.crawlId, source: page.source, query: page.query, page: page.page, pageSize: 20)
            let input: IndexInput
            switch random.next(4) {
            case 0: input = .thumbnails(ArtistIndexTests.thumbnails(for: page))
            case 1: input = .failedRequest(request, reason: "HTTP \(500 + random.next(2))")
            default: input = .page(page)
            }
            let (disk, memory) = (try onDisk.apply(input), try inMemory.apply(input))
            #expect(disk == memory, "step \(step): \(disk) against \(memory)")
            // The summary kept between changes is the one made afresh, asked after one step or several.
            if step % 3 == 0 { #expect(onDisk.currentSummary() == inMemory.summary, "step \(step)") }
        }
        #expect(onDisk.summary == inMemory.summary && onDisk.summary.pages > 0)
        let pageId = try #require(onDisk.outlines.keys.first)
        let entry = try #require(try earlier.entry(of: pageId))
        // Taken anew: empty; a change of the earlier assignment settling late lands in its own rows only.
        let fresh = try file.table(of: 0)
        #expect(try fresh.entry(of: pageId) == nil)
        try earlier.set(entry)
        #expect(try fresh.entry(of: pageId) == nil)
        #expect(try earlier.entry(of: pageId) == entry)
    }

    @Test("kept files that do not open as this version's (not databases at all) are made afresh, every one")
    func keptFilesThatDoNotOpen() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        var kept = StateCheckpoints()
        for file in StateFile.allCases {
            try Data("not a database".utf8).write(to: url.appendingPathComponent(file.name))
            kept[file] = StoreCheckpoint(
                cluster: nil, topic: file.topic, partitionCount: 1, written: Date(), fileBytes: 14,
                partitions: [0: .init(offset: 3, slot: 1, tally: [:])])
        }
        let stages = try IndexStages(
            partitions: 1, output: FolderOutputStore(directory: url.appendingPathComponent("out")),
            kafka: KafkaClientConfiguration(brokers: "127.0.0.1:9"), state: try StateFolder(url), kept: kept,
            storeThreads: .indexTests, pageThreads: .indexTests, logger: .test)
        #expect(try await stages.works.states.beginRestore(of: 0, under: AssignmentEpoch(1)).resumeOffset == 0)
        #expect(try await stages.artists.shards.beginRestore(of: 0, under: AssignmentEpoch(1)).resumeOffset == 0)
        #expect(try await stages.pages.states.beginRestore(of: 0, under: AssignmentEpoch(1)).resumeOffset == 0)
        #expect(try await stages.works.states.count(in: 0) == 0)
    }

    @Test("a state folder is one process's: a second is refused with what to do, and may take it once the first let go")
    func folderInUse() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        var first: StateFolder? = try StateFolder(url)
        let error = #expect(throws: ConfigurationError.self) { try StateFolder(url) }
        #expect(error?.description.contains("give each copy its own --state") == true, "\(String(describing: error))")
        withExtendedLifetime(first) {}
        first = nil
        _ = try StateFolder(url)
    }

    @Test(
        "a work's state, a line and a page's entry read back from their compact bytes as they were; each type's fields are the ones the codec writes"
    )
    func compactForms() throws {
        let work = WorkStoreTests.record
        var state = WorkState(work: work)
        let shards = IndexShards(count: 4)
        for row in [
            WorkRowsTests.version("p1", datestamp: "2026-01-01T00:00:00Z", image: "https://img/1.jpg"),
            WorkRowsTests.thumbnails("https://img/1.jpg", .ok, page: "p1"),
            WorkRowsTests.thumbnails("https://img/2.jpg", .failed, page: "p2"),
            .thumbnails(imageURL: "https://img/3.jpg", item: WorkRowsTests.item("https://img/3.jpg", .ok)),
            WorkRowsTests.deletion("p0", datestamp: "2025-01-01T00:00:00Z"),
        ] {
            _ = state.apply(key: row.key(of: work), row: row, shards: shards)
        }
        let read = try WorkState(work: work, stored: state.stored)
        #expect(read.rows == state.rows && read.line == state.line && state.line != nil)
        // In the changelog, without its line: made again from the rows.
        let restored = try WorkState(work: work, changelogValue: state.changelogValue, shards: shards)
        #expect(restored.rows == state.rows && restored.line == state.line)
        let line = try #require(state.rows.indexed)
        var writer = CompactWriter()
        writer.write(line)
        var reader = CompactReader(writer.bytes)
        #expect(try reader.indexedWork() == line && reader.isAtEnd)
        var entry = PageEntry(waitingFor: "rijksmuseum:q:3")
        (entry.crawlId, entry.source, entry.query, entry.page, entry.total) = ("c", "rijksmuseum", ["q": "v"], 3, 40)
        (entry.works, entry.images, entry.failure) = (["SK-1": work.description], ["SK-1": "https://img/1.jpg"], "gone")
        entry.records = ["oai:r:1": work.description]
        var named = PageThumbnails.Item(objectNumber: "SK-1", status: .failed, reason: "HTTP 404")
        named.recordId = "oai:r:1"
        var made = PageThumbnails.Item(objectNumber: "SK-2", status: .ok)
        made.colour = "#102030"
        entry.thumbnails = PageThumbnails(pageId: entry.pageId, items: [named, made])
        entry.retracted = [WorkRow.versionKey(of: work, page: entry.pageId)]
        for written in [entry, PageEntry(waitingFor: "p")] {
            var writer = CompactWriter()
            writer.write(written)
            var reader = CompactReader(writer.bytes)
            #expect(try reader.pageEntry() == written && reader.isAtEnd)
            // Its outline alone, read past its works: the outline of the whole entry.
            var outline = CompactReader(writer.bytes)
            #expect(try outline.pageOutline() == PageOutline(written))
        }
        // A field added to one of these types must be added to CompactWriter+IndexValues.swift
        // (to `pageOutline()` too, for a field of PageEntry before `fetched`).
        let artwork = Artwork(
            objectNumber: "o", title: "t", artist: "a", imageURL: nil, width: nil, height: nil, position: 0)
        let item = PageThumbnails.Item(objectNumber: "o", status: .ok)
        let file = PageThumbnails.File(size: 1, path: "p", width: 1, height: 1, bytes: 1, sha256: "s")
        let version = WorkVersion(pageId: "p", crawlId: "c", page: 1, artwork: artwork)
        let fields = [
            Mirror(reflecting: artwork).children.count, Mirror(reflecting: item).children.count,
            Mirror(reflecting: file).children.count, Mirror(reflecting: version).children.count,
            Mirror(reflecting: line).children.count,
            Mirror(reflecting: RecordDeletion(recordId: "r", datestamp: "d")).children.count,
            Mirror(reflecting: entry).children.count, Mirror(reflecting: entry.thumbnails!).children.count,
        ]
        #expect(fields == [15, 7, 6, 5, 18, 2, 13, 3])
    }

    static let record = WorkRowsTests.record
}
