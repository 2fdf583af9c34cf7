import ArtpipeRuntime
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

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
