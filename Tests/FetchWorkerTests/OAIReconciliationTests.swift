import PipelineContract
import Testing

@testable import FetchWorker

/// What a reconciliation removes: the records its scope's pages hold that the listing lacks.
@Suite("OAI-PMH reconciliation")
struct OAIReconciliationTests {
    static func page(
        _ source: String, _ query: [String: String], records: [String], page: Int = 1,
        datestamp: String = "2026-01-27T00:00:00Z"
    ) -> Page {
        let request = PageRequest(crawlId: "c", source: source, query: query, page: page, pageSize: 50)
        return Page(
            request: request, total: records.count,
            artworks: records.enumerated().map { position, id in
                Artwork(
                    objectNumber: "N-\(id)", title: "t", artist: "a", imageURL: nil, width: nil, height: nil,
                    position: position, recordId: id, datestamp: datestamp)
            })
    }

    @Test("only pages of the same source, endpoint and set count, whatever their window")
    func scope() {
        let endpoint = "https://repo.example/oai"
        var reconciliation = OAIReconciliation(
            source: "oai-pmh", query: ["endpoint": endpoint, "set": "paintings", "metadataPrefix": "lido"])
        reconciliation.add(Self.page("oai-pmh", ["endpoint": endpoint, "set": "paintings"], records: ["a", "b"]))
        reconciliation.add(
            Self.page(
                "oai-pmh", ["endpoint": endpoint, "set": "paintings", "from": "2026-11-01T00:00:00Z"], records: ["c"]))
        reconciliation.add(Self.page("oai-pmh", ["endpoint": endpoint, "set": "prints"], records: ["d"]))
        reconciliation.add(
            Self.page("oai-pmh", ["endpoint": "https://other.example/oai", "set": "paintings"], records: ["e"]))
        reconciliation.add(Self.page("rijksmuseum-oai", ["set": "paintings"], records: ["f"]))
        #expect(reconciliation.held == ["a", "b", "c"])
    }

    @Test("what the listing lacks goes, in pages of deletions stamped with the listing's server time")
    func deletions() {
        var reconciliation = OAIReconciliation(source: "oai-pmh", query: ["endpoint": "https://r.example/oai"])
        let held = (0..<2_500).map { "r\($0)" }
        reconciliation.add(Self.page("oai-pmh", ["endpoint": "https://r.example/oai"], records: held))
        var listing = OAIIdentifierListing(responseDate: "2026-11-26T12:00:00Z")
        listing.present = Set(held.filter { !$0.hasSuffix("7") })
        listing.present.insert("new-record")
        let gone = held.filter { $0.hasSuffix("7") }.sorted()
        #expect(reconciliation.gone(from: listing) == gone)
        let pages = reconciliation.pages(removing: listing, crawlId: "reconcile")
        #expect(pages.count == 1 && pages[0].deletions?.count == gone.count)
        #expect(pages.allSatisfy { $0.artworks.isEmpty && $0.query["reconciled"] == "2026-11-26T12:00:00Z" })
        #expect(pages.flatMap { $0.deletions ?? [] }.allSatisfy { $0.datestamp == "2026-11-26T12:00:00Z" })
        // A listing of everything removes nothing; more deletions than a page holds take pages.
        listing.present = Set(held)
        #expect(reconciliation.pages(removing: listing, crawlId: "r").isEmpty)
        listing.present = []
        let all = reconciliation.pages(removing: listing, crawlId: "r")
        #expect(all.map { $0.deletions?.count ?? 0 } == [1_000, 1_000, 500])
        #expect(Set(all.map(\.pageId)).count == 3)
        // Reconciling again: the first reconciliation's deletions are in the pages it reads, so
        // what it removed is no longer held and nothing is published again for it.
        var again = OAIReconciliation(source: "oai-pmh", query: ["endpoint": "https://r.example/oai"])
        again.add(Self.page("oai-pmh", ["endpoint": "https://r.example/oai"], records: held))
        for page in reconciliation.pages(
            removing: OAIIdentifierListing(responseDate: "2026-11-26T12:00:00Z"), crawlId: "r")
        {
            again.add(page)
        }
        #expect(again.held.isEmpty)
        #expect(again.pages(removing: OAIIdentifierListing(responseDate: "2026-11-27T12:00:00Z"), crawlId: "r").isEmpty)
        // A record the repository lists again with a newer version is held again.
        again.add(
            Self.page(
                "oai-pmh", ["endpoint": "https://r.example/oai", "from": "2026-11-28T00:00:00Z"], records: ["r5"],
                datestamp: "2026-11-28T09:00:00Z"))
        #expect(again.held == ["r5"])
    }
}
