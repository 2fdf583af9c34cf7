import ArtpipeTestKit
import Foundation
import PipelineContract
import Testing

@testable import FetchWorker

@Suite("Recorded legacy API responses")
struct LegacyFixtureTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try RecordedFixture.bytes(name)
    }

    static func artworks(_ name: String) throws -> (total: Int, artworks: [Artwork]) {
        let response = try LegacyCollectionSource.parse(fixture(name), imageEdge: 512)
        return (response.count, LegacyCollectionSource.artworks(of: response, imageEdge: 512))
    }

    @Test(
        "every recorded page parses into the right number of artworks",
        arguments: [
            ("legacy_collection_en_q-vermeer_ps10__farlake", 181, 10),
            ("legacy_collection_en_s-artist_ps20_p1__kyrillosgait-rijks-studio", 587_658, 20),
            ("legacy_collection_en_s-artist_ps50_p1__sanderdekoning-art", 592_591, 50),
            ("legacy_collection_en_s-relevance_ps100_imgonly__timedwardsios", 415_207, 100),
        ])
    func counts(name: String, total: Int, count: Int) throws {
        let page = try Self.artworks(name)
        #expect(page.total == total)
        #expect(page.artworks.count == count)
        #expect(page.artworks.map(\.position) == Array(0..<count))
        #expect(page.artworks.allSatisfy { !$0.objectNumber.isEmpty && !$0.title.isEmpty })
    }

    @Test("null and hidden images become works without an image; others are sized for thumbnails")
    func nullCases() throws {
        let page = try Self.artworks("legacy_collection_en_q-vermeer_ps10__farlake")
        let byNumber = Dictionary(uniqueKeysWithValues: page.artworks.map { ($0.objectNumber, $0) })
        let arie = try #require(byNumber["RP-P-2010-221-3145"])
        #expect(arie.imageURL == nil && arie.width == nil && arie.height == nil)
        #expect(arie.artist == "Arie Vermeer")
        #expect(try #require(byNumber["SK-A-5007"]).imageURL == nil, "showImage:false is not shown")
        let milkmaid = try #require(byNumber["SK-A-2344"])
        #expect(milkmaid.imageURL?.hasPrefix("https://lh3.googleusercontent.com/") == true)
        #expect(milkmaid.imageURL?.hasSuffix("=s512") == true)
        #expect(milkmaid.width == 2261 && milkmaid.height == 2548)
    }

    @Test("makers are kept as the API writes them, non-ASCII and anonymous included")
    func makers() throws {
        let page = try Self.artworks("legacy_collection_en_s-relevance_ps100_imgonly__timedwardsios")
        #expect(page.artworks.filter { $0.artist == "anonymous" }.count == 57)
        #expect(Set(page.artworks.map(\.artist)).count == 31)
        #expect(page.artworks.contains { $0.artist == "Philippe Roëttiers (II)" })
        #expect(page.artworks.contains { $0.artist == "Jan van Noordt (1623-1676)" })
        let sander = try Self.artworks("legacy_collection_en_s-artist_ps50_p1__sanderdekoning-art")
        #expect(sander.artworks[42].objectNumber == "KOG-MP-2-0258")
    }

    @Test("the dating that ends each long title, the object's web page; no rights or IIIF in a list answer")
    func datesAndPages() throws {
        let page = try Self.artworks("legacy_collection_en_q-vermeer_ps10__farlake")
        let byNumber = Dictionary(uniqueKeysWithValues: page.artworks.map { ($0.objectNumber, $0) })
        let milkmaid = try #require(byNumber["SK-A-2344"])
        #expect(milkmaid.date == "c. 1660")
        #expect(milkmaid.years == YearRange(earliest: 1660, latest: 1660))
        #expect(milkmaid.landingPage == "http://www.rijksmuseum.nl/en/collection/SK-A-2344", "as written")
        #expect(milkmaid.rights == nil && milkmaid.iiifManifest == nil && milkmaid.iiifImageService == nil)
        let letter = try #require(byNumber["SK-A-1595"])
        #expect(letter.date == "c. 1669 - c. 1670")
        #expect(letter.years == YearRange(earliest: 1669, latest: 1670))
        let reproduction = try #require(byNumber["RP-F-2001-7-1696-4"])
        #expect(reproduction.date == "c. 1887 - in or before 1892")
        #expect(reproduction.years == YearRange(earliest: 1887, latest: 1892))
        #expect(try #require(byNumber["RP-P-2010-221-3145"]).date == "1966", "a work without an image has its date")

        // Makers with qualifiers and commas between the title and the dating.
        let models = try Self.artworks("legacy_collection_en_s-artist_ps20_p1__kyrillosgait-rijks-studio")
        let crane = try #require(models.artworks.first { $0.objectNumber == "NG-MC-33" })
        #expect(crane.date == "c. 1790 - c. 1820")
        #expect(crane.years == YearRange(earliest: 1790, latest: 1820))
        let tiles = try Self.artworks("legacy_collection_en_s-artist_ps50_p1__sanderdekoning-art")
        #expect(
            tiles.artworks.contains {
                $0.date == "in or after 1834 - in or before 1861" && $0.years == YearRange(earliest: 1834, latest: 1861)
            })
        // Every recorded long title ends with a dating whose years are read, and every object has its page.
        for name in [
            "legacy_collection_en_q-vermeer_ps10__farlake",
            "legacy_collection_en_s-artist_ps20_p1__kyrillosgait-rijks-studio",
            "legacy_collection_en_s-artist_ps50_p1__sanderdekoning-art",
            "legacy_collection_en_s-relevance_ps100_imgonly__timedwardsios",
        ] {
            let works = try Self.artworks(name).artworks
            #expect(works.allSatisfy { $0.date != nil && $0.years != nil }, "\(name)")
            #expect(works.allSatisfy { $0.landingPage?.hasSuffix("/collection/\($0.objectNumber)") == true }, "\(name)")
        }
    }

    @Test(
        "a long title that is not the title followed by a dating gives no date",
        arguments: [
            #"{"objectNumber": "A-1", "title": "One", "longTitle": "One, Jan van Noordt (1623-1676)"}"#,
            #"{"objectNumber": "A-1", "title": "One", "longTitle": "Another, Somebody, 1650"}"#,
            #"{"objectNumber": "A-1", "title": "One", "longTitle": "One"}"#,
            #"{"objectNumber": "A-1", "title": "One", "longTitle": null, "links": null}"#,
            // Details of another shape are left out; the page stays readable.
            #"{"objectNumber": "A-1", "title": "One", "longTitle": 1650, "links": "https://x"}"#,
            #"{"objectNumber": "A-1", "title": "One", "longTitle": ["One, 1650"], "links": {"web": 7}}"#,
            #"{"objectNumber": "A-1", "longTitle": ", 1650"}"#,
        ])
    func noDating(object: String) throws {
        let response = try LegacyCollectionSource.parse(
            Array(#"{"count": 1, "artObjects": [\#(object)]}"#.utf8), imageEdge: 512)
        let artwork = try #require(LegacyCollectionSource.artworks(of: response, imageEdge: 512).first)
        #expect(artwork.date == nil && artwork.years == nil)
        #expect(artwork.landingPage == nil)
    }

    @Test(
        "JSON of the wrong shape is a clear format error",
        arguments: ["{\"count\": \"many\"}", "{\"artObjects\": []}", "[]", "{\"count\": -1, \"artObjects\": []}"])
    func wrongShape(body: String) {
        #expect(throws: SourceFormatError.self) { try LegacyCollectionSource.parse(Array(body.utf8), imageEdge: 512) }
    }

    @Test(
        "a body that is not JSON at all (an error page, a body cut short) is worth asking again",
        arguments: ["<html>rate limited</html>", "{\"count\": 3, \"artObj", ""])
    func notJSON(body: String) {
        #expect(throws: UnrecognisedAnswerError.self) {
            try LegacyCollectionSource.parse(Array(body.utf8), imageEdge: 512)
        }
    }

    @Test("objects without an objectNumber, and repeats on a page, are left out; unknown fields are ignored")
    func oddObjects() throws {
        let body = """
            {"count": 3, "somethingNew": {"x": 1}, "artObjects": [
              {"objectNumber": "A-1", "title": "One", "principalOrFirstMaker": "", "webImage": null, "id": null},
              {"objectNumber": null, "title": "Nameless"},
              {"objectNumber": "A-1", "title": "One again"},
              {"objectNumber": "A-2", "hasImage": true, "webImage": {"url": "http://lh3.googleusercontent.com/abc", "width": 0, "height": 0}}
            ]}
            """
        let response = try LegacyCollectionSource.parse(Array(body.utf8), imageEdge: 400)
        let artworks = LegacyCollectionSource.artworks(of: response, imageEdge: 400)
        #expect(artworks.map(\.objectNumber) == ["A-1", "A-2"])
        #expect(artworks.map(\.position) == [0, 3])
        #expect(artworks[0].artist == "" && artworks[0].imageURL == nil)
        #expect(artworks[1].title == "")
        #expect(artworks[1].imageURL == "https://lh3.googleusercontent.com/abc=s400")
        #expect(artworks[1].width == nil)
    }
}

@Suite("Image URL sizing and page ids")
struct ImageURLSizingTests {
    @Test(
        "hosts are asked for a size just above the largest thumbnail",
        arguments: [
            ("https://lh3.googleusercontent.com/abc=s0", "https://lh3.googleusercontent.com/abc=s512"),
            ("https://lh3.googleusercontent.com/abc", "https://lh3.googleusercontent.com/abc=s512"),
            ("http://lh5.ggpht.com/xyz=w200-h100", "https://lh5.ggpht.com/xyz=s512"),
            (
                "https://iiif.micr.io/ABC/full/max/0/default.jpg",
                "https://iiif.micr.io/ABC/full/!512,512/0/default.jpg"
            ),
            ("https://example.org/image.jpg", "https://example.org/image.jpg"),
        ])
    func sizing(url: String, expected: String) {
        #expect(ImageURLSizing.sized(url, longestEdge: 512) == expected)
    }

}
