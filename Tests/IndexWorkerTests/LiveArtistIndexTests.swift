import ArtpipeTestKit
import Foundation
import PipelineContract
import Testing

@testable import IndexWorker

@Suite("The live index: kept current page by page, always equal to the plain build")
struct LiveArtistIndexTests {
    /// A small generator with a fixed seed, so a failure is the same failure every run.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// A page of unversioned or versioned works drawn from a small pool of objects and makers,
    /// so pages overlap, artists come and go, and records are revised and deleted.
    static func page(_ random: inout Random, crawl: String, number: Int) -> Page {
        let versioned = crawl == "oai"
        let request = PageRequest(
            crawlId: crawl, source: versioned ? "rijksmuseum-oai" : "rijksmuseum", query: ["q": crawl], page: number,
            pageSize: 8)
        let artworks = (0..<random.next(8)).map { position in
            let object = random.next(40)
            let maker = ["Rembrandt", "Émile", "emile", "  ", "Vermeer", "Zurbarán", "Hals \(random.next(3))"][
                random.next(7)]
            return Artwork(
                objectNumber: "SK-\(object)", title: "Title \(random.next(4))", artist: maker,
                imageURL: random.next(4) == 0 ? nil : "https://img/\(object)", width: nil, height: nil,
                position: position, recordId: versioned ? "rec-\(random.next(30))" : nil,
                datestamp: versioned ? "2026-0\(1 + random.next(3))-01T00:00:00Z" : nil)
        }
        let deletions =
            versioned
            ? (0..<random.next(3)).map { _ in
                RecordDeletion(
                    recordId: "rec-\(random.next(30))", datestamp: "2026-0\(1 + random.next(3))-01T00:00:00Z")
            } : nil
        return Page(request: request, total: 100, artworks: artworks, deletions: deletions)
    }

    /// Items in the page's order, reversed, or with one listed twice.
    static func thumbnails(_ random: inout Random, for page: Page) -> PageThumbnails {
        var items = page.artworks.map { artwork -> PageThumbnails.Item in
            switch random.next(4) {
            case 0: .init(objectNumber: artwork.objectNumber, status: .noImage)
            case 1: .init(objectNumber: artwork.objectNumber, status: .failed, reason: "HTTP 40\(random.next(3))")
            default:
                .init(
                    objectNumber: artwork.objectNumber, status: .ok,
                    files: [
                        .init(
                            size: 200, path: "thumbs/200/\(artwork.objectNumber).jpg", width: 200, height: 150,
                            bytes: 1, sha256: "x")
                    ])
            }
        }
        switch random.next(4) {
        case 0: items.reverse()
        case 1 where !items.isEmpty: items.insert(items[items.count - 1], at: 0)
        default: break
        }
        return PageThumbnails(pageId: page.pageId, items: items)
    }

    @Test(
        "random histories over three shards: after every step the live index equals the plain build of the merge",
        arguments: [1, 2, 3, 4])
    func equalsPlainBuild(seed: UInt64) {
        var random = Random(state: seed)
        var shards = [IndexInputs](repeating: IndexInputs(), count: 3)
        var live = LiveArtistIndex()
        var clock: Int64 = 0
        var known: [Page] = []
        for step in 0..<300 {
            var changed: Set<String> = []
            for _ in 0..<(1 + random.next(3)) {
                let shard = random.next(3)
                clock += Int64(random.next(3))
                let crawl = ["a", "b", "oai"][random.next(3)]
                let page =
                    known.isEmpty || random.next(3) > 0
                    ? Self.page(&random, crawl: crawl, number: 1 + random.next(6))
                    : known[random.next(known.count)]
                switch random.next(4) {
                case 0, 1:
                    shards[shard].add(page, producedAt: clock)
                    known.append(page)
                case 2: shards[shard].add(Self.thumbnails(&random, for: page), producedAt: clock)
                default:
                    shards[shard].addFailure(
                        PageRequest(
                            crawlId: page.crawlId, source: page.source, query: page.query, page: page.page,
                            pageSize: 8), reason: "HTTP 500", producedAt: clock)
                }
                changed.insert(page.pageId)
            }
            let before = live.index
            let touched = live.update(changed) { pageId, inputs in inputs.resolve(pageId, from: shards) }
            let merged = shards.reduce(into: IndexInputs()) { $0.merge($1) }
            let expected = ArtistIndex.build(from: merged)
            let (sameInputs, sameIndex) = (live.inputs == merged, live.index == expected)
            #expect(sameInputs, "step \(step): the merge")
            #expect(sameIndex, "step \(step): the index")
            // Every artist whose works changed is reported, with its count before: its buckets
            // are the ones rendered again.
            let works = { (index: ArtistIndex) in
                Dictionary(uniqueKeysWithValues: index.artists.map { ($0.name, $0.works) })
            }
            let (old, new) = (works(before), works(expected))
            let missed = Set(old.keys).union(new.keys).filter {
                old[$0] != new[$0] && touched[$0] != (old[$0]?.count ?? 0)
            }
            #expect(missed.isEmpty, "step \(step): changed artists not reported: \(missed.sorted())")
            if !sameInputs || !sameIndex || !missed.isEmpty { return }
        }
        let rebuilt = LiveArtistIndex(shards.reduce(into: IndexInputs()) { $0.merge($1) }).index == live.index
        #expect(rebuilt, "a full build of the final inputs")
    }

    @Test("the full build of the live index equals the plain build on the recorded pages")
    func fullBuild() throws {
        var inputs = IndexInputs()
        for page in try ArtistIndexTests.recordedPages() {
            inputs.add(page)
            inputs.add(ArtistIndexTests.thumbnails(for: page))
        }
        for page in RecordVersionsTests.pages { inputs.add(page) }
        let same = LiveArtistIndex(inputs).index == ArtistIndex.build(from: inputs)
        #expect(same)
    }
}
