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

    static func thumbnails(_ image: String, _ status: PageThumbnails.Item.Status) -> WorkRow {
        .thumbnails(
            imageURL: image,
            item: PageThumbnails.Item(
                objectNumber: "SK-A-1", status: status, reason: status == .failed ? "HTTP 503" : nil,
                files: status == .ok
                    ? [
                        .init(
                            size: 200, path: "thumbs/200/aa/\(image.count).jpg", width: 200, height: 150, bytes: 9,
                            sha256: "s")
                    ]
                    : []))
    }

    /// Applies `rows` as B does, its write-backs going to the end of the log it reads; returns
    /// the live state and the log.
    static func run(_ rows: [WorkRow?], keys: [String], work: WorkKey = record) -> (WorkRows, [(String, WorkRow?)]) {
        var state = WorkRows(work: work)
        var log: [(String, WorkRow?)] = []
        var queue = Array(zip(keys, rows))
        while !queue.isEmpty {
            let (key, row) = queue.removeFirst()
            log.append((key, row))
            for write in state.apply(key: key, row: row) { queue.append((write.key, write.row)) }
        }
        return (state, log)
    }

    /// The state a new owner restores: the latest row of each key, in the order they were last written.
    static func restore(_ log: [(String, WorkRow?)], work: WorkKey = record) -> WorkRows {
        var latest: [String: (at: Int, row: WorkRow?)] = [:]
        for (at, entry) in log.enumerated() { latest[entry.0] = (at, entry.1) }
        var state = WorkRows(work: work)
        for (key, entry) in latest.sorted(by: { $0.value.at < $1.value.at }) where entry.row != nil {
            _ = state.apply(key: key, row: entry.row)
        }
        return state
    }

    @Test(
        "any order of a record's versions, deletions and thumbnails shows the same work; a restore from the compacted log agrees"
    )
    func randomizedHistories() {
        var random = SplitMix(seed: 41)
        let pages = ["oai:a:1", "oai:a:2", "oai:b:1", "oai:c:7"]
        let images = ["https://img/1.jpg", "https://img/2.jpg", nil]
        for history in 0..<300 {
            var rows: [WorkRow] = []
            for _ in 0..<(2 + random.next(5)) {
                let pageId = pages[random.next(pages.count)]
                let datestamp = "2026-01-0\(1 + random.next(5))T00:00:00Z"
                if random.next(6) == 0 {
                    rows.append(Self.deletion(pageId, datestamp: datestamp))
                } else {
                    rows.append(Self.version(pageId, datestamp: datestamp, image: images[random.next(images.count)]))
                }
            }
            for _ in 0..<random.next(4) {
                let image = images[random.next(2)]!
                rows.append(Self.thumbnails(image, [.ok, .failed, .noImage][random.next(3)]))
            }
            // One row per key, as the topic holds it: the first of each key in this history.
            var seen = Set<String>()
            rows = rows.filter { seen.insert($0.key(of: Self.record)).inserted }
            var expected: ArtistIndex.Work??
            for _ in 0..<4 {
                rows.shuffle(using: &random)
                let (live, log) = Self.run(rows, keys: rows.map { $0.key(of: Self.record) })
                if let expected { #expect(live.indexed == expected, "history \(history)") }
                expected = .some(live.indexed)
                #expect(Self.restore(log).indexed == live.indexed, "history \(history): the restore differs")
                #expect(live.versions.count <= 1, "history \(history): superseded versions stay")
            }
        }
    }

    @Test("a record leaves only through a deletion; an older version or a page that moved takes nothing back")
    func leavesOnlyByDeletion() {
        let rows: [WorkRow?] = [
            Self.version("oai:a:3", page: 3, datestamp: "2026-01-02T00:00:00Z", image: "https://img/2.jpg"),
            Self.version("oai:a:1", page: 1, datestamp: "2026-01-01T00:00:00Z", image: "https://img/1.jpg"),
        ]
        var (state, log) = Self.run(rows, keys: rows.map { $0!.key(of: Self.record) })
        #expect(log.count == 3, "the two versions and the older one's tombstone")
        #expect(state.indexed?.pageId == "oai:a:3")
        #expect(log.contains { $0.0 == WorkRow.versionKey(of: Self.record, page: "oai:a:1") && $0.1 == nil })
        // An older deletion changes nothing; one as new as the version removes the work, and a
        // replayed older version after it brings nothing back.
        for (row, shown) in [
            (Self.deletion("oai:d:1", datestamp: "2026-01-01T12:00:00Z"), true),
            (Self.deletion("oai:d:2", datestamp: "2026-01-02T00:00:00Z"), false),
            (Self.version("oai:a:1", page: 1, datestamp: "2026-01-01T00:00:00Z", image: "https://img/1.jpg"), false),
        ] {
            for write in state.apply(key: row.key(of: Self.record), row: row) {
                _ = state.apply(key: write.key, row: write.row)
            }
            #expect((state.indexed != nil) == shown)
        }
    }

    @Test("thumbnails join the version's image: a late result for an older version's image never stands for the newer")
    func thumbnailsJoinTheirVersion() {
        var state = WorkRows(work: Self.record)
        let apply = { (state: inout WorkRows, row: WorkRow) in
            for write in state.apply(key: row.key(of: Self.record), row: row) {
                _ = state.apply(key: write.key, row: write.row)
            }
        }
        apply(&state, Self.version("oai:a:1", datestamp: "2026-01-01T00:00:00Z", image: "https://img/1.jpg"))
        #expect(state.indexed?.thumbnailStatus == "pending")
        apply(&state, Self.version("oai:a:1", datestamp: "2026-01-05T00:00:00Z", image: "https://img/2.jpg"))
        apply(&state, Self.thumbnails("https://img/2.jpg", .ok))
        // The older version's retry copy settles late, as failed.
        apply(&state, Self.thumbnails("https://img/1.jpg", .failed))
        #expect(state.indexed?.thumbnailStatus == "ok")
        #expect(state.indexed?.thumbnails["200"] == "thumbs/200/aa/17.jpg")
        // For one image, a failure after a success is written back as the success.
        let writes = state.apply(
            key: WorkRow.thumbnailKey(of: Self.record, imageURL: "https://img/2.jpg"),
            row: Self.thumbnails("https://img/2.jpg", .failed))
        #expect(writes.map(\.row) == [Self.thumbnails("https://img/2.jpg", .ok)])
        #expect(state.indexed?.thumbnailStatus == "ok")
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
            #expect(
                state.apply(key: listing(pageId, page, title).key(of: work), row: listing(pageId, page, title)).isEmpty)
        }
        #expect(state.indexed?.title == "two" && state.indexed?.thumbnailStatus == "noImage")
        _ = state.apply(key: WorkRow.versionKey(of: work, page: "r:q:2"), row: nil)
        #expect(state.indexed?.title == "five")
        _ = state.apply(key: WorkRow.versionKey(of: work, page: "r:q:5"), row: nil)
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
