import PipelineContract
import Testing

@testable import IndexWorker

@Suite("A work's rows in artpipe.index-works")
struct WorkRowsTests {
    static let record = WorkKey(source: "oai", id: "https://id.example/1", isRecord: true)

    static func version(_ pageId: String, page: Int = 1, datestamp: String, image: String?, title: String = "t")
        -> WorkRow
    {
        .version(
            WorkVersion(
                pageId: pageId, crawlId: "c", page: page,
                artwork: Artwork(
                    objectNumber: "SK-A-1", title: title, artist: "Maker", imageURL: image, width: nil, height: nil,
                    position: 0, recordId: record.id, datestamp: datestamp)))
    }

    static func deletion(_ pageId: String, datestamp: String) -> WorkRow {
        .version(
            WorkVersion(
                pageId: pageId, crawlId: "c", page: 1, artwork: nil,
                deletion: RecordDeletion(recordId: record.id, datestamp: datestamp)))
    }

    static func item(_ image: String, _ status: PageThumbnails.Item.Status) -> PageThumbnails.Item {
        var item = PageThumbnails.Item(
            objectNumber: "SK-A-1", status: status, reason: status == .failed ? "HTTP 503" : nil,
            files: status == .ok
                ? [
                    .init(
                        size: 200, path: "thumbs/200/aa/\(image.split(separator: "/").last ?? "").jpg", width: 200,
                        height: 150, bytes: 9,
                        sha256: "s"),
                    .init(
                        size: 200, path: "thumbs/200/aa/\(image.split(separator: "/").last ?? "").webp", width: 200,
                        height: 150, bytes: 7, sha256: "w"),
                ]
                : [])
        (item.imageURL, item.recordId) = (image, record.id)
        if status == .ok { item.colour = "#8a7f6b" }
        return item
    }

    /// The thumbnails page `pageId` has of the work's image `image`.
    static func thumbnails(_ image: String, _ status: PageThumbnails.Item.Status, page pageId: String = "oai:a:1")
        -> WorkRow
    {
        .pageThumbnails(pageId: pageId, imageURL: image, item: item(image, status))
    }

    /// The state of `rows` applied in their order, each under its key.
    static func run(_ rows: [(String, WorkRow?)], work: WorkKey = record) -> WorkRows {
        var state = WorkRows(work: work)
        for (key, row) in rows { state.apply(key: key, row: row) }
        return state
    }

    /// The state a new owner restores: the latest row of each key, in the order they were last
    /// written, tombstones gone.
    static func restore(_ log: [(String, WorkRow?)], work: WorkKey = record) -> WorkRows {
        var latest: [String: (at: Int, row: WorkRow?)] = [:]
        for (at, entry) in log.enumerated() { latest[entry.0] = (at, entry.1) }
        return run(
            latest.sorted(by: { $0.value.at < $1.value.at }).compactMap { key, entry in entry.row.map { (key, $0) } },
            work: work)
    }

    @Test(
        "any order of a record's rows, each key's rows in the order written, shows the same work; a restore from the compacted log agrees"
    )
    func randomizedHistories() {
        var random = SplitMix(seed: 41)
        let pages = ["oai:a:1", "oai:a:2", "oai:b:1", "oai:c:7"]
        let images = ["https://img/1.jpg", "https://img/2.jpg", nil]
        for history in 0..<300 {
            // Each key's rows in the order its one writer wrote them; a tombstone now and then.
            var byKey: [String: [WorkRow?]] = [:]
            for _ in 0..<(2 + random.next(8)) {
                let pageId = pages[random.next(pages.count)]
                let datestamp = "2026-01-0\(1 + random.next(5))T00:00:00Z"
                let row: WorkRow
                switch random.next(6) {
                case 0: row = Self.deletion(pageId, datestamp: datestamp)
                case 1, 2:
                    row = Self.thumbnails(
                        images[random.next(2)]!, [.ok, .failed, .noImage][random.next(3)], page: pageId)
                default: row = Self.version(pageId, datestamp: datestamp, image: images[random.next(images.count)])
                }
                let key = row.key(of: Self.record)
                byKey[key, default: []].append(random.next(7) == 0 ? nil : row)
            }
            var expected: ArtistIndex.Work??
            for _ in 0..<4 {
                // The keys' rows interleaved at random, each key's in its order.
                var queues = byKey.sorted { $0.key < $1.key }.map { ($0.key, $0.value[...]) }
                var log: [(String, WorkRow?)] = []
                while case let waiting = queues.indices.filter({ !queues[$0].1.isEmpty }), !waiting.isEmpty {
                    let index = waiting[random.next(waiting.count)]
                    log.append((queues[index].0, queues[index].1.removeFirst()))
                }
                let live = Self.run(log)
                if let expected { #expect(live.indexed == expected, "history \(history)") }
                expected = .some(live.indexed)
                #expect(Self.restore(log).indexed == live.indexed, "history \(history): the restore differs")
            }
        }
    }

    @Test("a record leaves only through a deletion; an older version or a page that moved takes nothing back")
    func leavesOnlyByDeletion() {
        var state = WorkRows(work: Self.record)
        for row in [
            Self.version("oai:a:3", page: 3, datestamp: "2026-01-02T00:00:00Z", image: "https://img/2.jpg"),
            Self.version("oai:a:1", page: 1, datestamp: "2026-01-01T00:00:00Z", image: "https://img/1.jpg"),
        ] {
            state.apply(key: row.key(of: Self.record), row: row)
        }
        #expect(state.indexed?.pageId == "oai:a:3")
        // An older deletion changes nothing; one as new as the version removes the work, and a
        // replayed older version after it brings nothing back.
        for (row, shown) in [
            (Self.deletion("oai:d:1", datestamp: "2026-01-01T12:00:00Z"), true),
            (Self.deletion("oai:d:2", datestamp: "2026-01-02T00:00:00Z"), false),
            (Self.version("oai:a:1", page: 1, datestamp: "2026-01-01T00:00:00Z", image: "https://img/1.jpg"), false),
        ] {
            state.apply(key: row.key(of: Self.record), row: row)
            #expect((state.indexed != nil) == shown)
        }
    }

    @Test(
        "thumbnails join the version's image: a late result for an older version's image never stands for the newer; of pages' results for one image the best"
    )
    func thumbnailsJoinTheirVersion() {
        var state = WorkRows(work: Self.record)
        let apply = { (state: inout WorkRows, row: WorkRow) in state.apply(key: row.key(of: Self.record), row: row) }
        apply(&state, Self.version("oai:a:1", datestamp: "2026-01-01T00:00:00Z", image: "https://img/1.jpg"))
        #expect(state.indexed?.thumbnailStatus == "pending")
        apply(&state, Self.version("oai:a:1", datestamp: "2026-01-05T00:00:00Z", image: "https://img/2.jpg"))
        apply(&state, Self.thumbnails("https://img/2.jpg", .ok, page: "oai:a:1"))
        // The older version's retry copy settles late, as failed, on another page.
        apply(&state, Self.thumbnails("https://img/1.jpg", .failed, page: "oai:b:1"))
        #expect(state.indexed?.thumbnailStatus == "ok")
        #expect(state.indexed?.thumbnails["200"] == "thumbs/200/aa/2.jpg.jpg")
        #expect(state.indexed?.webpThumbnails == ["200": "thumbs/200/aa/2.jpg.webp"])
        #expect(state.indexed?.colour == "#8a7f6b")
        // The older image's late result on the page of the newer: a row of its own image, no other's.
        apply(&state, Self.thumbnails("https://img/1.jpg", .ok, page: "oai:a:1"))
        #expect(state.indexed?.thumbnails["200"] == "thumbs/200/aa/2.jpg.jpg")
        // Another page failed on the same image: the success stands; that page's row taken back, too.
        apply(&state, Self.thumbnails("https://img/2.jpg", .failed, page: "oai:b:1"))
        #expect(state.indexed?.thumbnailStatus == "ok")
        state.apply(
            key: WorkRow.thumbnailsKey(of: Self.record, page: "oai:a:1", imageURL: "https://img/2.jpg"), row: nil)
        #expect(state.indexed?.thumbnailStatus == "failed")
        // A failed thumbnail has no colour and no files, whatever its item says.
        #expect(state.indexed?.colour == nil && state.indexed?.webpThumbnails == nil)
        // 0.7's row of the image, keyed by its URL, still counts.
        let legacy = WorkRow.thumbnails(imageURL: "https://img/2.jpg", item: Self.item("https://img/2.jpg", .ok))
        apply(&state, legacy)
        #expect(state.indexed?.thumbnailStatus == "ok")
        state.apply(key: legacy.key(of: Self.record), row: nil)
        #expect(state.indexed?.thumbnailStatus == "failed")
    }

    @Test("without record ids: the lowest page's listing shows; it leaves when no page lists it")
    func listings() {
        let work = WorkKey(source: "rijksmuseum", id: "SK-A-1", isRecord: false)
        var state = WorkRows(work: work)
        let listing = { (pageId: String, page: Int, title: String) in
            WorkRow.version(
                WorkVersion(
                    pageId: pageId, crawlId: "c", page: page,
                    artwork: Artwork(
                        objectNumber: "SK-A-1", title: title, artist: "M", imageURL: nil, width: nil, height: nil,
                        position: 0)))
        }
        for (pageId, page, title) in [("r:q:5", 5, "five"), ("r:q:2", 2, "two")] {
            state.apply(key: listing(pageId, page, title).key(of: work), row: listing(pageId, page, title))
        }
        #expect(state.indexed?.title == "two" && state.indexed?.thumbnailStatus == "noImage")
        state.apply(key: WorkRow.versionKey(of: work, page: "r:q:2"), row: nil)
        #expect(state.indexed?.title == "five")
        state.apply(key: WorkRow.versionKey(of: work, page: "r:q:5"), row: nil)
        #expect(state.indexed == nil && state.isEmpty)
    }

    @Test("a work key reads back from its text and keeps to one partition")
    func workKeys() {
        let keys = [Self.record, WorkKey(source: "rijksmuseum", id: "RP-P-OB-23.990", isRecord: false)]
        for key in keys {
            #expect(WorkKey(text: key.description) == key)
            #expect((0..<6).contains(key.partition(of: 6)) && key.partition(of: 6) == key.partition(of: 6))
        }
        #expect(WorkKey(text: "x\u{1F}y") == nil)
    }
}

/// A seeded generator, so every history can be run again.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
