import PipelineContract
import Testing

@testable import IndexWorker

/// The live index's three parts, each on its own: slots, work sources, artist shelves.
@Suite("The live index's parts: page slots, work sources, artist shelves")
struct LiveIndexPartsTests {
    static func page(_ pageId: String, number: Int, _ artworks: [Artwork], deletions: [RecordDeletion]? = nil) -> Page {
        let request = PageRequest(
            crawlId: "c-\(pageId)", source: "rijksmuseum-oai", query: [:], page: number, pageSize: 10)
        return Page(request: request, total: 100, artworks: artworks, deletions: deletions)
    }

    static func artwork(_ object: String, by maker: String = "Hals", record: String? = nil, at datestamp: String? = nil)
        -> Artwork
    {
        Artwork(
            objectNumber: object, title: "T", artist: maker, imageURL: nil, width: nil, height: nil, position: 0,
            recordId: record, datestamp: datestamp)
    }

    @Test("a freed slot goes to the next new page; a page keeps its slot; a free slot names no page")
    func slots() {
        var slots = PageSlots()
        let a = slots.slot(for: "a")
        let b = slots.slot(for: "b")
        #expect((a, b) == (0, 1))
        #expect(slots.slot(for: "a") == a)
        slots.free("a")
        #expect(slots.slot(of: "a") == nil)
        #expect(slots[a] == "")
        #expect(slots.slot(for: "c") == a)
        #expect(slots[a] == "c")
        #expect(slots.slot(for: "d") == 2)
        slots.free("nothing")
        #expect(slots.slot(of: "b") == b)
    }

    @Test("an unlisted object's work is the lowest page's listing; a record's newest version wins over listings")
    func sources() throws {
        var inputs = IndexInputs()
        var slots = PageSlots()
        var sources = WorkSources()
        let high = Self.page("high", number: 5, [Self.artwork("SK-1")])
        let low = Self.page("low", number: 2, [Self.artwork("SK-1")])
        let old = Self.page("old", number: 1, [Self.artwork("SK-2", record: "r", at: "2026-01-01T00:00:00Z")])
        let new = Self.page("new", number: 9, [Self.artwork("SK-2", record: "r", at: "2026-03-01T00:00:00Z")])
        var objects: Set<String>? = []
        var records: Set<String>? = []
        var firstSeen: [String]? = []
        for page in [high, low, old, new] {
            inputs.add(page)
            sources.add(
                page, slot: slots.slot(for: page.pageId), objects: &objects, records: &records, firstSeen: &firstSeen)
        }
        #expect(firstSeen == ["SK-1"])
        #expect(records == ["r"])
        #expect(sources.hasSeveralVersions("r"))
        #expect(sources.chosen("SK-1", in: inputs, slots: slots)?.slot == slots.slot(of: low.pageId))

        let settled = sources.settle(record: "r", in: inputs, slots: slots, fresh: true)
        #expect(settled.after == "SK-2")
        #expect(settled.first)
        #expect(sources.chosen("SK-2", in: inputs, slots: slots)?.slot == slots.slot(of: new.pageId))

        // The newest version's page goes: the record's work is taken back, then the older version is live.
        var changed: Set<String>? = []
        var changedRecords: Set<String>? = []
        sources.remove(new, slot: try #require(slots.slot(of: new.pageId)), objects: &changed, records: &changedRecords)
        #expect(changed == ["SK-2"])
        #expect(sources.chosen("SK-2", in: inputs, slots: slots) == nil)
        #expect(sources.settle(record: "r", in: inputs, slots: slots).after == "SK-2")
        #expect(sources.chosen("SK-2", in: inputs, slots: slots)?.slot == slots.slot(of: old.pageId))
    }

    @Test("shelves keep each artist's works in object-number order and artists in index order, and count statuses")
    func shelves() {
        var shelves = ArtistShelves()
        let hals = shelves.artistNumber(ofMaker: "  Hals ")
        #expect(shelves.artistNumber(ofMaker: "Hals") == hals)
        let vermeer = shelves.artistNumber(ofMaker: "Vermeer")
        func entry(_ object: String, _ status: LiveArtistIndex.Status = .ok) -> LiveArtistIndex.Entry {
            .init(objectNumber: object, slot: 0, position: 0, item: -1, status: status)
        }
        var changes = ArtistShelves.Changes()
        for (object, artist) in [("SK-9", vermeer), ("SK-3", hals), ("SK-1", hals)] {
            shelves.move(object, from: nil, to: (artist, entry(object)), changes: &changes)
        }
        let touched = shelves.apply(changes)
        #expect(touched == ["Hals": 0, "Vermeer": 0])
        #expect(shelves.artists.map(\.name) == ["Hals", "Vermeer"])
        #expect(shelves.entries(ofArtistAt: 0).map(\.objectNumber) == ["SK-1", "SK-3"])
        #expect(shelves.count(of: .ok) == 3)

        // SK-3 moves to Vermeer as pending; Hals keeps one work, Vermeer sorts it in.
        changes = ArtistShelves.Changes()
        let placed = shelves.placed("SK-3")
        #expect(placed?.artist == hals)
        shelves.move("SK-3", from: placed, to: (vermeer, entry("SK-3", .pending)), changes: &changes)
        #expect(shelves.apply(changes) == ["Hals": 2, "Vermeer": 1])
        #expect(shelves.entries(ofArtistAt: 1).map(\.objectNumber) == ["SK-3", "SK-9"])
        #expect((shelves.count(of: .ok), shelves.count(of: .pending)) == (2, 1))

        // Hals's last work leaves: Hals leaves the order.
        changes = ArtistShelves.Changes()
        shelves.move("SK-1", from: shelves.placed("SK-1"), to: nil, changes: &changes)
        _ = shelves.apply(changes)
        #expect(shelves.artists.map(\.name) == ["Vermeer"])
        #expect(shelves.workCount == 2)
        #expect(shelves.workCount(of: "Hals") == 0)
        #expect(shelves.placed("SK-1") == nil)
    }
}
