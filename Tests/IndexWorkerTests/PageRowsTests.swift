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

    @Test("thumbnails go to the work the page lists, keyed by the image they were made for")
    func thumbnails() {
        let fetched = PageRows.rows(of: Self.page("oai", ["A", "B"], versioned: true), before: nil)
        var late = PageThumbnails.Item(objectNumber: "A", status: .failed, reason: "HTTP 503")
        late.imageURL = "https://img/older.jpg"
        let legacy = PageThumbnails.Item(objectNumber: "B", status: .ok)
        let gone = PageThumbnails.Item(objectNumber: "Z", status: .ok)
        let writes = PageRows.rows(
            of: PageThumbnails(pageId: fetched.entry.pageId, items: [late, legacy, gone]), entry: fetched.entry)
        #expect(writes.map(\.work.id) == ["rec-A", "rec-B"])
        #expect(writes[0].key == WorkRow.thumbnailKey(of: writes[0].work, imageURL: "https://img/older.jpg"))
        #expect(writes[1].key == WorkRow.thumbnailKey(of: writes[1].work, imageURL: "https://img/B.jpg"))
        #expect(PageRows.rows(of: PageThumbnails(pageId: "x", items: [legacy]), entry: nil).isEmpty)
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
        #expect(writes.map(\.work.isRecord) == [true, false])
        #expect(writes.map(\.work.id) == ["R1", "A-1"])
    }
}
