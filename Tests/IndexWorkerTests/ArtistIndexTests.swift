import ArtpipeTestKit
import Foundation
import PipelineContract
import Testing

@testable import FetchWorker
@testable import IndexWorker

@Suite("The artist index as a pure function of its pages")
struct ArtistIndexTests {
    static func fixtureArtworks(_ name: String) throws -> [Artwork] {
        let response = try LegacyCollectionSource.parse(RecordedFixture.bytes(name), imageEdge: 512)
        return LegacyCollectionSource.artworks(of: response, imageEdge: 512)
    }

    static func page(_ number: Int, _ artworks: [Artwork], crawl: String = "crawl-a", total: Int = 1_000) -> Page {
        let request = PageRequest(
            crawlId: crawl, source: "rijksmuseum", query: ["s": "artist", "c": crawl], page: number, pageSize: 20)
        let positioned = artworks.enumerated().map { index, artwork in
            var artwork = artwork
            artwork.position = index
            return artwork
        }
        return Page(request: request, total: total, artworks: positioned)
    }

    static func thumbnails(for page: Page) -> PageThumbnails {
        PageThumbnails(
            pageId: page.pageId,
            items: page.artworks.map { artwork in
                guard artwork.imageURL != nil else {
                    return .init(objectNumber: artwork.objectNumber, status: .noImage)
                }
                if artwork.position % 9 == 4 {
                    return .init(objectNumber: artwork.objectNumber, status: .failed, reason: "HTTP 404")
                }
                let name = artwork.objectNumber
                return .init(
                    objectNumber: name, status: .ok,
                    files: [200, 400].map {
                        .init(size: $0, path: "thumbs/\($0)/\(name).jpg", width: $0, height: $0, bytes: 1, sha256: "x")
                    })
            })
    }

    /// Pages from the recordings: two recordings of the same artist-sorted first page, the
    /// next objects of one of them, and a page of another query.
    static func recordedPages() throws -> [Page] {
        let studio = try fixtureArtworks("legacy_collection_en_s-artist_ps20_p1__kyrillosgait-rijks-studio")
        let dekoning = try fixtureArtworks("legacy_collection_en_s-artist_ps50_p1__sanderdekoning-art")
        let relevance = try fixtureArtworks("legacy_collection_en_s-relevance_ps100_imgonly__timedwardsios")
        return [
            page(1, studio),
            page(2, Array(dekoning[20..<40])),
            page(3, Array(dekoning[40..<50])),
            // The same objects as page 1, in another order, on a later page: page 1 must win them.
            page(5, Array(dekoning[0..<20])),
            page(1, Array(relevance[0..<50]), crawl: "crawl-b"),
            page(2, Array(relevance[50..<100]), crawl: "crawl-b"),
        ]
    }

    enum Message {
        case page(Page)
        case thumbnails(PageThumbnails)
    }

    static func index(_ messages: [Message]) throws -> [String: [UInt8]] {
        var inputs = IndexInputs()
        for message in messages {
            switch message {
            case .page(let page): inputs.add(page)
            case .thumbnails(let thumbnails): inputs.add(thumbnails)
            }
        }
        return IndexLayout.files(for: ArtistIndex.build(from: inputs))
    }

    @Test("shuffled, duplicated and replayed sequences of the same pages give byte-identical published files")
    func determinism() throws {
        let pages = try Self.recordedPages()
        let messages = pages.map(Message.page) + pages.map { .thumbnails(Self.thumbnails(for: $0)) }
        let reference = try Self.index(messages)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<25 {
            var sequence = messages.shuffled(using: &generator)
            // Duplicates anywhere, and a replay of everything at the end.
            sequence += (0..<round % 7).compactMap { _ in messages.randomElement(using: &generator) }
            if round % 3 == 0 { sequence += messages.shuffled(using: &generator) }
            #expect(try Self.index(sequence.shuffled(using: &generator)) == reference, "round \(round)")
        }
        let manifest = try JSONDecoder().decode(IndexManifest.self, from: Data(try #require(reference["index.json"])))
        #expect(manifest.schema == "artpipe-index/2")
        let index = ArtistIndex.build(from: pages.reduce(into: IndexInputs()) { $0.add($1) })
        #expect(manifest.artists.map(\.works) == index.artists.map(\.works.count))
        #expect(index.totals.works == index.artists.map(\.works.count).reduce(0, +))
        #expect(index.totals.works == Set(pages.flatMap(\.artworks).map(\.objectNumber)).count)
    }

    @Test(
        "a later page holding works of an artist first seen earlier puts them in that artist's group, by objectNumber"
    )
    func sortOrderQuirk() throws {
        func work(_ number: String, _ artist: String) -> Artwork {
            Artwork(
                objectNumber: number, title: number, artist: artist, imageURL: nil, width: nil, height: nil, position: 0
            )
        }
        let pages = [
            Self.page(1, [work("A1", "Aalst"), work("X1", "Xavier"), work("X2", "Xavier")]),
            Self.page(45, [work("A2", "Aalst"), work("X3", "Xavier"), work("B1", "Bosch")]),
            Self.page(2, [work("X4", "Xavier"), work("C1", "Cuyp")]),
        ]
        let index = ArtistIndex.build(from: pages.reduce(into: IndexInputs()) { $0.add($1) })
        #expect(index.artists.map(\.name) == ["Aalst", "Bosch", "Cuyp", "Xavier"])
        let xavier = try #require(index.artists.last)
        #expect(xavier.works.map(\.objectNumber) == ["X1", "X2", "X3", "X4"])
        #expect(xavier.works.map(\.page) == [1, 1, 45, 2])
        #expect(index.artists[0].works.map(\.objectNumber) == ["A1", "A2"])
    }

    @Test("an object on two pages is listed once, from its lowest page")
    func lowestPageWins() throws {
        let pages = try Self.recordedPages()
        let index = ArtistIndex.build(from: pages.reduce(into: IndexInputs()) { $0.add($1) })
        let works = index.artists.flatMap(\.works)
        #expect(Set(works.map(\.objectNumber)).count == works.count)
        let firstPage = Set(pages[0].artworks.map(\.objectNumber))
        #expect(
            works.filter { firstPage.contains($0.objectNumber) }.allSatisfy {
                $0.page == 1 && $0.pageId == pages[0].pageId
            })
        // The recordings break ties within an artist differently, so page 5 (the other
        // recording's first 20) may hold objects page 1 lacks: only those come from page 5.
        let lower = Set(pages.filter { $0.page < 5 }.flatMap(\.artworks).map(\.objectNumber))
        let fromFive = works.filter { $0.page == 5 }.map(\.objectNumber)
        #expect(fromFive.allSatisfy { !lower.contains($0) })
        #expect(Set(fromFive) == Set(pages[3].artworks.map(\.objectNumber)).subtracting(lower))
    }

    @Test("works are listed before their thumbnails arrive, and fill in when they do")
    func thumbnailsFillIn() throws {
        let page = try Self.recordedPages()[0]
        var inputs = IndexInputs()
        inputs.add(page)
        let before = ArtistIndex.build(from: inputs)
        #expect(before.artists.flatMap(\.works).allSatisfy { $0.thumbnailStatus == "pending" && $0.thumbnails.isEmpty })
        inputs.add(Self.thumbnails(for: page))
        let after = ArtistIndex.build(from: inputs)
        let works = after.artists.flatMap(\.works)
        #expect(!works.contains { $0.thumbnailStatus == "pending" })
        let ok = try #require(works.first { $0.thumbnailStatus == "ok" })
        #expect(
            ok.thumbnails == ["200": "thumbs/200/\(ok.objectNumber).jpg", "400": "thumbs/400/\(ok.objectNumber).jpg"])
        #expect(works.filter { $0.thumbnailStatus == "failed" }.allSatisfy { $0.thumbnailReason == "HTTP 404" })
        #expect(after.totals.thumbnails.values.reduce(0, +) == works.count)
    }

    @Test("artists sort without regard to case and accents; exact names break ties; the unknown maker comes last")
    func collation() {
        let names = ["émile", "Zeeman", "", "Emile", "anonymous", "Roëttiers", "roettiers", "  "]
        let artworks = names.enumerated().map { index, name in
            Artwork(
                objectNumber: "O\(index)", title: "", artist: name, imageURL: nil, width: nil, height: nil,
                position: index)
        }
        var inputs = IndexInputs()
        inputs.add(Self.page(1, artworks))
        let index = ArtistIndex.build(from: inputs)
        #expect(index.artists.map(\.name) == ["anonymous", "Emile", "émile", "Roëttiers", "roettiers", "Zeeman", ""])
        #expect(index.artists.last?.works.map(\.objectNumber) == ["O2", "O7"])
    }

    @Test("a name's letter is the first of its folded name when that is a to z, else Other")
    func letters() {
        let names = [
            "émile", "Émile", "Øystein", "ßach", "İzmir", "Ｂoch", "", " lead", "Æsop", "Ångström", "ǅorđe", "9 Masters",
        ]
        for name in names {
            let whole = ArtistIndex.collationKey(name).unicodeScalars.first.map(String.init) ?? ""
            let expected = ("a"..."z").contains(whole) && whole.count == 1 ? whole : "other"
            // The assembly reads the letter from the key it sorted by.
            #expect(GallerySite.Letter.key(folded: ArtistIndex.collationKey(name)) == expected, "\(name)")
        }
        #expect(GallerySite.Letter.key(folded: ArtistIndex.collationKey("Émile")) == "e")
        #expect(GallerySite.Letter.key(folded: "") == "other")
    }

    @Test(
        "names and keys compared by their UTF-8 bytes sort as by their Unicode scalars, whatever their length or script"
    )
    func scalarOrder() {
        let names = [
            "", "a", "A", "ab", "a b", "é", "e\u{301}", "Ëva", "Eva", "eva bes", "long name past fifteen bytes",
            "long name past fifteen bytes too", "葛飾北斎", "葛飾", "🎨", "\u{7f}", "\u{80}", "ÿ", "Ā", "\u{ffff}",
            "\u{10000}",
        ]
        for a in names {
            for b in names {
                #expect(
                    ArtistIndex.scalarsPrecede(a, b) == a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars),
                    "\(a.debugDescription) against \(b.debugDescription)")
            }
        }
    }

    @Test("per crawl: pages indexed, gaps below the highest page, failed pages")
    func crawlProgress() {
        var inputs = IndexInputs()
        for number in [1, 2, 5] { inputs.add(Self.page(number, [])) }
        let failed = PageRequest(
            crawlId: "crawl-a", source: "rijksmuseum", query: ["s": "artist", "c": "crawl-a"], page: 4, pageSize: 20)
        inputs.addFailure(failed, reason: "HTTP 401")
        let index = ArtistIndex.build(from: inputs)
        let crawl = index.crawls[0]
        #expect(crawl.pagesIndexed == [1, 2, 5])
        #expect(crawl.gaps == [3])
        #expect(crawl.failedPages == [.init(page: 4, reason: "HTTP 401")])
        #expect(index.totals.failedPages == 1)
        inputs.add(Self.page(4, []))
        #expect(
            ArtistIndex.build(from: inputs).crawls[0].failedPages.isEmpty, "a page fetched later is no longer failed")
    }
}

@Suite("The gallery site")
struct GallerySiteTests {
    /// The gallery of five works by five artists (hostile titles and colours among them), as
    /// published without a site's address, or with `address`.
    static func site(at address: SiteAddress? = nil) -> [String: String] {
        func work(_ number: String, _ artist: String, _ title: String) -> Artwork {
            Artwork(
                objectNumber: number, title: title, artist: artist, imageURL: "https://x/\(number)", width: nil,
                height: nil, position: 0)
        }
        var artworks = [
            work("A1", "Ädam", "<script>alert(1)</script>"), work("A2", "adam", "Two"), work("Z1", "Zoë", "\"Z\""),
            work("U1", "", "u"), work("K1", "葛飾北斎", "Wave"),
        ]
        artworks[3].imageURL = nil
        let page = ArtistIndexTests.page(1, artworks)
        var inputs = IndexInputs()
        inputs.add(page)
        var thumbnails = ArtistIndexTests.thumbnails(for: page)
        thumbnails.items[4] = .init(objectNumber: "K1", status: .failed, reason: "HTTP 404 <from the host>")
        thumbnails.items[1].colour = "#8A7f6b"
        thumbnails.items[1].files += [200, 400].map {
            .init(size: $0, path: "thumbs/\($0)/A2.webp", width: $0, height: $0, bytes: 1, sha256: "w")
        }
        thumbnails.items[2].colour = "red;background-image:url(//x.example/)"
        inputs.add(thumbnails)
        return IndexLayout.files(for: ArtistIndex.build(from: inputs), site: address).mapValues {
            String(decoding: $0, as: UTF8.self)
        }
    }

    @Test("a work's paths: its JPEGs as its thumbnails and WebPs beside them; WebPs alone as its thumbnails")
    func thumbnailPaths() {
        let both = ArtistIndex.Work.paths(of: [(200, "a.jpg"), (200, "a.webp"), (400, "b.jpg"), (200, "c.jpg")])
        #expect(both.thumbnails == ["200": "a.jpg", "400": "b.jpg"] && both.webp == ["200": "a.webp"])
        let webp = ArtistIndex.Work.paths(of: [(200, "a.webp"), (400, "b.webp")])
        #expect(webp.thumbnails == ["200": "a.webp", "400": "b.webp"] && webp.webp == nil)
        let jpeg = ArtistIndex.Work.paths(of: [(200, "a.jpg")])
        #expect(jpeg.thumbnails == ["200": "a.jpg"] && jpeg.webp == nil)
        #expect(ArtistIndex.Work.paths(of: []).thumbnails.isEmpty)
    }

    @Test("the front page: totals, letters A–Z with counts, a search box; no works")
    func frontPage() throws {
        let front = try #require(Self.site()["index.html"])
        #expect(front.contains("5 works by 5 artists"))
        #expect(GallerySite.grouped(1_000_000) == "1,000,000" && GallerySite.grouped(999) == "999")
        #expect(front.contains("<a href=\"gallery/letter-a.html\">A<small>2</small></a>"))
        #expect(front.contains("<a href=\"gallery/letter-z.html\">Z<small>1</small></a>"))
        #expect(front.contains("<a href=\"gallery/letter-other.html\">Other<small>2</small></a>"))
        #expect(front.contains("<input id=\"q\" type=\"search\""))
        #expect(front.contains("gallery/artists.js") && !front.contains("<figure"))
    }

    @Test("letter pages link every artist to its section; bucket pages hold each work once, escaped, lazy")
    func pagesAndLinks() throws {
        let site = Self.site()
        let letterA = try #require(site["gallery/letter-a.html"])
        let links = letterA.components(separatedBy: "<li><a href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(links.count == 2)
        for link in links + [
            try #require(site["gallery/letter-other.html"]).components(separatedBy: "<li><a href=\"")[1].prefix {
                $0 != "\""
            }
        ] {
            let parts = link.split(separator: "#")
            let page = try #require(site["gallery/\(parts[0])"], "\(link)")
            #expect(page.contains("<section id=\"\(parts[1])\">"))
        }
        let buckets = site.filter {
            $0.key.hasPrefix("gallery/") && !$0.key.contains("letter-") && $0.key.hasSuffix(".html")
        }
        let all = buckets.values.joined()
        #expect(all.components(separatedBy: "<figure ").count - 1 == 5)
        #expect(all.contains("<img loading=\"lazy\" src=\"../thumbs/200/A1.jpg\""))
        // A placeholder colour in the tile's style, only where it is one.
        // The WebP beside the JPEG, for the browsers that take it.
        #expect(
            all.contains(
                "<picture><source type=\"image/webp\" srcset=\"../thumbs/200/A2.webp\" data-large=\"../thumbs/400/A2.webp\"><img loading=\"lazy\" style=\"background:#8A7f6b\" src=\"../thumbs/200/A2.jpg\" alt=\"Two\"></picture>"
            ))
        #expect(all.components(separatedBy: "<picture>").count == 2)
        #expect(all.contains("<img loading=\"lazy\" src=\"../thumbs/200/Z1.jpg\"") && !all.contains("x.example"))
        let lines = site.filter { $0.key.hasPrefix("works/") }.values.joined()
        // Not in a line either: the line says what the tile shows.
        #expect(lines.contains("\"colour\":\"#8A7f6b\"") && lines.components(separatedBy: "\"colour\"").count == 2)
        #expect(
            lines.contains(
                "\"thumbnails\":{\"200\":\"thumbs/200/A2.jpg\",\"400\":\"thumbs/400/A2.jpg\"}")
                && lines.contains("\"webpThumbnails\":{\"200\":\"thumbs/200/A2.webp\",\"400\":\"thumbs/400/A2.webp\"}"))
        #expect(!all.contains("<script>alert") && all.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(all.contains("Unknown maker"))
        #expect(all.contains(">No image</div>"))
        #expect(all.contains("title=\"HTTP 404 &lt;from the host&gt;\">Thumbnail failed</div>"))
        for (path, text) in site where path.hasSuffix(".html") {
            #expect(!text.contains("src=\"/") && !text.contains("href=\"/"), "\(path): paths stay relative")
        }
        let artists = try #require(site["gallery/artists.js"])
        #expect(artists.hasPrefix("window.artpipeArtists = [") && artists.contains("[\"葛飾北斎\",1,\""))
    }
}
