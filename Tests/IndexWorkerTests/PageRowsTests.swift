import PipelineContract
import Testing

@testable import IndexWorker

@Suite("What a page writes to artpipe.index-works")
struct PageRowsTests {
    static func page(
        _ source: String, _ objects: [String], versioned: Bool = false, deletions: [String] = [],
        image: (String) -> String? = { "https://img/\($0).jpg" }
    ) -> Page {
        let request = PageRequest(crawlId: "c", source: source, query: ["set": "s"], page: 2, pageSize: 10)
        return Page(
            request: request, total: 99,
            artworks: objects.enumerated().map { position, object in
                Artwork(
                    objectNumber: object, title: "t", artist: "M", imageURL: image(object), width: nil, height: nil,
                    position: position, recordId: versioned ? "rec-\(object)" : nil,
                    datestamp: versioned ? "2026-01-01T00:00:00Z" : nil)
            },
            deletions: versioned
                ? deletions.map { RecordDeletion(recordId: $0, datestamp: "2026-01-02T00:00:00Z") } : nil)
    }

    @Test("a page listed again without a work takes back that work's listing; a record's version stays")
    func relisted() {
        let first = PageRows.rows(of: Self.page("legacy", ["A", "B", "A"]), before: nil)
        #expect(first.writes.map(\.work.id) == ["A", "B"], "a second listing on one page is not a row")
        #expect(first.writes.allSatisfy { $0.row != nil })
        let second = PageRows.rows(of: Self.page("legacy", ["B", "C"]), before: first.entry)
        #expect(second.writes.filter { $0.row == nil }.map(\.work.id) == ["A"])
        #expect(second.writes.filter { $0.row != nil }.map(\.work.id) == ["B", "C"])

        let records = PageRows.rows(of: Self.page("oai", ["A", "B"], versioned: true), before: nil)
        let moved = PageRows.rows(
            of: Self.page("oai", ["C"], versioned: true, deletions: ["rec-B"]), before: records.entry)
        #expect(moved.writes.allSatisfy { $0.row != nil }, "no version of a record is taken back by a page")
        #expect(moved.writes.map(\.work.id) == ["rec-C", "rec-B"])
        #expect(moved.writes.allSatisfy { $0.work.isRecord })
    }

    @Test(
        "thumbnails go to the work the page lists, keyed by the work and the page, naming the image they were made for")
    func thumbnails() {
        let fetched = PageRows.rows(of: Self.page("oai", ["A", "B"], versioned: true), before: nil)
        var late = PageThumbnails.Item(objectNumber: "A", status: .failed, reason: "HTTP 503")
        late.imageURL = "https://img/older.jpg"
        let legacy = PageThumbnails.Item(objectNumber: "B", status: .ok)
        let gone = PageThumbnails.Item(objectNumber: "Z", status: .ok)
        let pageId = fetched.entry.pageId
        let writes = PageRows.rows(
            of: PageThumbnails(pageId: pageId, items: [late, legacy, gone]), entry: fetched.entry)
        #expect(writes.map(\.work.id) == ["rec-A", "rec-B"])
        #expect(
            writes.map(\.key) == [
                WorkRow.thumbnailsKey(of: writes[0].work, page: pageId, imageURL: "https://img/older.jpg"),
                WorkRow.thumbnailsKey(of: writes[1].work, page: pageId, imageURL: "https://img/B.jpg"),
            ])
        #expect(writes[0].row == .pageThumbnails(pageId: pageId, imageURL: "https://img/older.jpg", item: late))
        #expect(writes[1].row == .pageThumbnails(pageId: pageId, imageURL: "https://img/B.jpg", item: legacy))
        #expect(PageRows.rows(of: PageThumbnails(pageId: "x", items: [legacy]), entry: nil).isEmpty)
    }

    @Test(
        "a page that lists a work without record id no more takes back its listing and its thumbnails rows; a record's stay"
    )
    func thumbnailsTakenBack() throws {
        for versioned in [false, true] {
            var partition = PagePartition(partition: 0)
            let source = versioned ? "oai" : "legacy"
            let first = Self.page(source, ["A", "B"], versioned: versioned)
            _ = try partition.apply(.page(first))
            // Two results for A: its image now, and a late one for an image it had before.
            var older = PageThumbnails.Item(objectNumber: "A", status: .ok)
            older.imageURL = "https://img/A-before.jpg"
            let items = ["A", "B"].map { PageThumbnails.Item(objectNumber: $0, status: .ok) } + [older]
            let made = try partition.apply(.thumbnails(PageThumbnails(pageId: first.pageId, items: items)))
            #expect(made.works.count == 3 && made.works.allSatisfy { $0.row != nil })
            let moved = try partition.apply(.page(Self.page(source, ["B"], versioned: versioned)))
            let gone = moved.works.filter { $0.row == nil }
            if versioned {
                #expect(gone.isEmpty, "a record's version and thumbnails stay")
            } else {
                let work = WorkKey(source: first.workSource, id: "A", isRecord: false)
                #expect(
                    Set(gone.map(\.key)) == [
                        WorkRow.versionKey(of: work, page: first.pageId),
                        WorkRow.thumbnailsKey(of: work, page: first.pageId, imageURL: "https://img/A.jpg"),
                        WorkRow.thumbnailsKey(of: work, page: first.pageId, imageURL: "https://img/A-before.jpg"),
                    ])
            }
            // The page's next thumbnails keep the earlier items too, the latest first, then the listed works'.
            let next = try partition.apply(
                .thumbnails(
                    PageThumbnails(pageId: first.pageId, items: [PageThumbnails.Item(objectNumber: "B", status: .ok)])))
            #expect(next.entry?.thumbnails?.items.map(\.objectNumber) == ["B", "A", "A"])
            #expect(
                moved.works.contains { $0.work.id.hasSuffix("B") && $0.key.contains("\u{1F}i\u{1F}") && $0.row != nil })
        }
        // Before any thumbnails, a page listed anew writes no thumbnails' tombstones.
        var fresh = PagePartition(partition: 0)
        _ = try fresh.apply(.page(Self.page("legacy", ["A", "B"])))
        let listed = Self.page("legacy", ["B"])
        let relisted = try fresh.apply(.page(listed))
        let listing = WorkKey(source: listed.workSource, id: "A", isRecord: false)
        #expect(
            relisted.works.filter { $0.row == nil }.map(\.key) == [WorkRow.versionKey(of: listing, page: listed.pageId)]
        )
    }

    /// What `page` writes over `before`, and its entry.
    static func change(_ page: Page, over before: PageEntry?, settled: Bool) throws -> (
        taken: [String], entry: PageEntry
    ) {
        let writes = PagePartition.writes(for: .page(page), before: before, beforeSettled: settled)
        return (writes.works.filter { $0.row == nil }.map(\.key), try #require(writes.entry))
    }

    @Test(
        "a page handled again after a crash, its entry already a later one, takes back again what its first handling took back"
    )
    func retractedAgain() throws {
        let first = try Self.change(Self.page("legacy", ["A", "B"]), over: nil, settled: true)
        let second = try Self.change(Self.page("legacy", ["B"]), over: first.entry, settled: true)
        #expect(second.taken.count == 1 && second.entry.retracted == second.taken, "A taken back, and named")
        // The changelog had the entry; the rows after it were lost with the process.
        let again = try Self.change(Self.page("legacy", ["B"]), over: second.entry, settled: false)
        #expect(again.taken == second.taken && again.entry == second.entry)
        // Two versions in one run, both handled again over the later one's entry: the first
        // finds nothing of A to take back itself, and sends what the entry named.
        let third = try Self.change(Self.page("legacy", ["B", "C"]), over: second.entry, settled: false)
        #expect(third.taken == second.taken, "A, not listed, taken back again")
        let secondAgain = try Self.change(Self.page("legacy", ["B"]), over: third.entry, settled: false)
        #expect(Set(secondAgain.taken) == Set(second.taken + [Self.listingKey("C")]), "A and C")
        // A listed again: its row is written, and not taken back; C, dropped, is.
        let back = try Self.change(Self.page("legacy", ["A", "B"]), over: third.entry, settled: false)
        #expect(back.taken == [Self.listingKey("C")] && back.entry.retracted == back.taken)
        // Once the change before is known in the topic, its entry's names are not carried on.
        let settled = try Self.change(Self.page("legacy", ["B", "C"]), over: second.entry, settled: true)
        #expect(settled.taken.isEmpty && settled.entry.retracted == nil)
    }

    /// The key of the listing of `object` without record id on ``page(_:_:versioned:deletions:image:)``'s page.
    static func listingKey(_ object: String) -> String {
        let page = Self.page("legacy", [object])
        return WorkRow.versionKey(of: WorkKey(source: page.workSource, artwork: page.artworks[0]), page: page.pageId)
    }

    @Test(
        "an undated record and a dated one of one object number: the undated one's listing is taken back when the page drops it, and only then"
    )
    func listingBehindARecord() {
        let both = Self.sharedNumberPage([("R1", "2026-01-01T00:00:00Z"), ("R2", nil)])
        let first = PageRows.rows(of: both, before: nil)
        let listing = WorkKey(source: both.workSource, id: "A-1", isRecord: false)
        #expect(first.writes.contains { $0.work == listing && $0.row != nil })
        let dated = PageRows.rows(of: Self.sharedNumberPage([("R1", "2026-01-01T00:00:00Z")]), before: first.entry)
        #expect(dated.writes.filter { $0.row == nil }.map(\.work) == [listing])
        // Listed again behind the record: written, and what was taken back before is not sent after it.
        let again = PageRows.rows(of: both, before: dated.entry)
        #expect(again.writes.filter { $0.work == listing }.map { $0.row != nil } == [true])
    }

    @Test(
        "a late result for the page's older version, read between the next version's thumbnails and its page, drops none of them"
    )
    func lateResultBetween() throws {
        var partition = PagePartition(partition: 0)
        let first = Self.page("legacy", ["A"])
        _ = try partition.apply(.page(first))
        let item = { (object: String) in
            var item = PageThumbnails.Item(objectNumber: object, status: .ok)
            item.imageURL = "https://img/\(object).jpg"
            return item
        }
        _ = try partition.apply(.thumbnails(PageThumbnails(pageId: first.pageId, items: [item("A"), item("B")])))
        var late = item("A")
        late.imageURL = "https://img/A-retry.jpg"
        _ = try partition.apply(.thumbnails(PageThumbnails(pageId: first.pageId, items: [late])))
        let next = try partition.apply(.page(Self.page("legacy", ["A", "B"])))
        #expect(
            next.works.contains {
                $0.key == WorkRow.thumbnailsKey(of: $0.work, page: first.pageId, imageURL: "https://img/B.jpg")
                    && $0.row != nil
            })
    }

    @Test(
        "a work whose image URL changes at every harvest: the page keeps at most its limit of items, and takes back the rows of those it drops"
    )
    func imagesPastTheLimit() throws {
        var partition = PagePartition(partition: 0)
        let page = Self.page("legacy", ["A"])
        _ = try partition.apply(.page(page))
        let work = WorkKey(source: page.workSource, id: "A", isRecord: false)
        var takenBack: [String] = []
        var kept = 0
        for harvest in 0..<(PageRows.keptLimit(1) + 3) {
            var item = PageThumbnails.Item(objectNumber: "A", status: .ok)
            item.imageURL = "https://img/A-\(harvest).jpg"
            let writes = try partition.apply(.thumbnails(PageThumbnails(pageId: page.pageId, items: [item])))
            takenBack += writes.works.filter { $0.row == nil }.map(\.key)
            kept = writes.entry?.thumbnails?.items.count ?? 0
        }
        #expect(kept == PageRows.keptLimit(1))
        #expect(
            takenBack
                == (0..<3).map {
                    WorkRow.thumbnailsKey(of: work, page: page.pageId, imageURL: "https://img/A-\($0).jpg")
                })
    }

    @Test("a page that drops hundreds of works takes every one back, and its entry names every one")
    func manyTakenBack() throws {
        let objects = (0..<400).map { "O-\($0)" }
        let first = try Self.change(Self.page("legacy", objects), over: nil, settled: true)
        let second = try Self.change(Self.page("legacy", ["O-0"]), over: first.entry, settled: true)
        #expect(second.taken.count == 399)
        // The entry reaches the changelog before the rows: it alone names them after a crash.
        #expect(second.entry.retracted == second.taken)
        let again = try Self.change(Self.page("legacy", ["O-0"]), over: second.entry, settled: false)
        #expect(again.taken == second.taken && again.entry.retracted == second.taken)
        // Handled again, and again before that one was acknowledged: still every one.
        let twice = try Self.change(Self.page("legacy", ["O-0"]), over: again.entry, settled: false)
        #expect(twice.entry.retracted == second.taken)
        // The next change over an entry whose rows are known in the topic: its own alone.
        let third = try Self.change(Self.page("legacy", ["O-1"]), over: second.entry, settled: true)
        #expect(third.taken == [Self.listingKey("O-0")] && third.entry.retracted == third.taken)
    }

    @Test(
        "thumbnails read before the page's next version keep its new works' items; an item without an image URL is named the image its object has"
    )
    func thumbnailsBeforeTheNextVersion() throws {
        var partition = PagePartition(partition: 0)
        _ = try partition.apply(.page(Self.page("legacy", ["A"])))
        // 0.6's items, without image URLs, made for the next version, read before it.
        let items = ["A", "B"].map { PageThumbnails.Item(objectNumber: $0, status: .ok) }
        let early = try partition.apply(
            .thumbnails(PageThumbnails(pageId: Self.page("legacy", ["A"]).pageId, items: items)))
        #expect(early.entry?.thumbnails?.items.map(\.imageURL) == ["https://img/A.jpg", nil])
        let next = try partition.apply(.page(Self.page("legacy", ["A", "B"])))
        let made = next.works.compactMap { write -> String? in
            guard case .pageThumbnails(_, let imageURL, _)? = write.row else { return nil }
            return imageURL
        }
        #expect(made == ["https://img/A.jpg", "https://img/B.jpg"])
    }

    @Test("a page's later result for one image ranks below an earlier one: the earlier stays; a better one replaces it")
    func thumbnailsKeptByRank() throws {
        var partition = PagePartition(partition: 0)
        let page = Self.page("oai", ["A"], versioned: true)
        _ = try partition.apply(.page(page))
        let made = { (status: PageThumbnails.Item.Status) in
            var item = PageThumbnails.Item(
                objectNumber: "A", status: status, reason: status == .failed ? "HTTP 503" : nil,
                files: status == .ok
                    ? [.init(size: 200, path: "thumbs/a.jpg", width: 200, height: 150, bytes: 9, sha256: "s")] : [])
            (item.imageURL, item.recordId) = ("https://img/A.jpg", "rec-A")
            return PageThumbnails(pageId: page.pageId, items: [item])
        }
        let status = { (writes: PagePartition.Writes) -> PageThumbnails.Item.Status? in
            for write in writes.works {
                if case .pageThumbnails(_, _, let item)? = write.row { return item.status }
            }
            return nil
        }
        #expect(status(try partition.apply(.thumbnails(made(.failed)))) == .failed)
        #expect(status(try partition.apply(.thumbnails(made(.ok)))) == .ok)
        #expect(status(try partition.apply(.thumbnails(made(.failed)))) == .ok, "a second harvest's failure")
        #expect(try partition.apply(.thumbnails(made(.ok))).entry?.thumbnails?.items.count == 1)
        // Made again with other settings: the later ok is the one kept.
        var remade = made(.ok)
        remade.items[0].files[0].path = "thumbs/a.0f.jpg"
        let kept = try partition.apply(.thumbnails(remade))
        #expect(kept.entry?.thumbnails?.items.map { $0.files.map(\.path) } == [["thumbs/a.0f.jpg"]])
        #expect(status(try partition.apply(.page(page))) == .ok, "the page read again")
    }
}

extension PageRowsTests {
    /// An OAI-PMH page of `records` (record id, datestamp), every one of object number `A-1`,
    /// each with its own image.
    static func sharedNumberPage(_ records: [(String, String?)]) -> Page {
        let request = PageRequest(
            crawlId: "c", source: "oai-pmh", query: ["endpoint": "https://x/oai"], page: 1, pageSize: 10)
        return Page(
            request: request, total: records.count,
            artworks: records.enumerated().map { position, record in
                Artwork(
                    objectNumber: "A-1", title: "t", artist: "M", imageURL: "https://img/\(record.0).jpg", width: nil,
                    height: nil, position: position, recordId: record.0, datestamp: record.1)
            })
    }

    /// A thumbnail made for `record` of ``sharedNumberPage(_:)``, naming it.
    static func item(for record: String) -> PageThumbnails.Item {
        var item = PageThumbnails.Item(objectNumber: "A-1", status: .ok)
        (item.imageURL, item.recordId) = ("https://img/\(record).jpg", record)
        return item
    }

    @Test(
        "two records of one page with one object number each get the thumbnail made for them; an item naming no record goes by object number"
    )
    func thumbnailsByRecord() {
        // An aggregator's two institutions, one inventory number.
        let page = Self.sharedNumberPage([("oai:a:1", "2026-01-01T00:00:00Z"), ("oai:b:1", "2026-01-01T00:00:00Z")])
        let entry = PageRows.rows(of: page, before: nil).entry
        let items = [Self.item(for: "oai:a:1"), Self.item(for: "oai:b:1")]
        let writes = PageRows.rows(of: PageThumbnails(pageId: page.pageId, items: items), entry: entry)
        #expect(writes.map(\.work.id) == ["oai:a:1", "oai:b:1"])
        // An item that names no record: the first work of that number.
        var unnamed = items[1]
        unnamed.recordId = nil
        let old = PageRows.rows(of: PageThumbnails(pageId: page.pageId, items: [unnamed]), entry: entry)
        #expect(old.map(\.work.id) == ["oai:a:1"])
    }

    @Test(
        "an item naming a record the page lists no more goes to no work; a record without a datestamp is joined by its id too"
    )
    func thumbnailsOfRecordsGone() {
        let page = Self.sharedNumberPage([("R1", "2026-01-01T00:00:00Z"), ("R2", nil)])
        let entry = PageRows.rows(of: page, before: nil).entry
        let writes = PageRows.rows(
            of: PageThumbnails(pageId: page.pageId, items: ["R1", "R2", "R0"].map(Self.item(for:))), entry: entry)
        // In the order of their work keys' texts: the object number's (`o`) before the record's (`r`).
        #expect(writes.map(\.work.isRecord) == [false, true])
        #expect(writes.map(\.work.id) == ["A-1", "R1"])
    }
}
