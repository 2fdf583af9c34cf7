import ArtpipeSupport
import Foundation
import PipelineContract
import Testing

@testable import IndexWorker

@Suite("A work's detail on its bucket page")
struct WorkDetailTests {
    @Test("a known rights statement is named in words with its link; another URL is a link; other text stays text")
    func rightsInWords() {
        let cases: [(String, String, String?)] = [
            ("http://creativecommons.org/publicdomain/zero/1.0/", "CC0 1.0 (public domain dedication)", nil),
            ("https://creativecommons.org/publicdomain/mark/1.0/", "Public Domain Mark 1.0", nil),
            ("http://creativecommons.org/licenses/by-sa/4.0/", "CC BY-SA 4.0", nil),
            ("https://creativecommons.org/licenses/by-nc-nd/2.0/deed.en", "CC BY-NC-ND 2.0", nil),
            ("http://rightsstatements.org/vocab/InC/1.0/", "In Copyright", nil),
            ("http://rightsstatements.org/vocab/NoC-NC/1.0/", "No Copyright – Non-Commercial Use Only", nil),
            ("https://www.flickr.com/commons/usage/", "No known copyright restrictions", nil),
            ("https://museum.example/terms", "Rights statement", nil),
            ("  © Rijksmuseum, Amsterdam \n", "© Rijksmuseum, Amsterdam", nil),
            ("Public domain", "Public domain", nil),
        ]
        for (rights, words, _) in cases {
            let statement = RightsStatement(rights)
            #expect(statement.words == words, "\(rights)")
            let trimmed = rights.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(statement.link == (trimmed.hasPrefix("http") ? trimmed : nil), "\(rights)")
        }
    }

    static func work(_ objectNumber: String, recordId: String? = nil) -> ArtistIndex.Work {
        ArtistIndex.Work(
            objectNumber: objectNumber, title: "The Night Watch, a title longer than a tile's two lines",
            pageId: "oai-pmh:q:1", page: 1, imageURL: "https://img/1.jpg", thumbnailStatus: "ok",
            thumbnailReason: nil,
            thumbnails: ["200": "thumbs/200/0a/SK-C-5.1.jpg", "400": "thumbs/400/0a/SK-C-5.1.jpg"],
            recordId: recordId, datestamp: nil)
    }

    @Test("a work's anchor is its object number and record id, and nothing else of its line")
    func anchors() {
        let anchor = GallerySite.workAnchor(Self.work("SK-C-5", recordId: "oai:r:1"))
        #expect(anchor.count == 17 && anchor.hasPrefix("w"))
        var moved = Self.work("SK-C-5", recordId: "oai:r:1")
        (moved.pageId, moved.page, moved.title, moved.date) = ("oai-pmh:q:9", 9, "Another title", "1642")
        #expect(GallerySite.workAnchor(moved) == anchor)
        #expect(GallerySite.workAnchor(Self.work("SK-C-5", recordId: "oai:r:2")) != anchor)
        #expect(GallerySite.workAnchor(Self.work("SK-C-5")) != anchor)
        #expect(GallerySite.workAnchor(Self.work("SK-C-6", recordId: "oai:r:1")) != anchor)
    }

    @Test(
        "the detail shows the larger image in both sizes, the full title, date, rights, the museum's page and manifest")
    func detail() {
        var work = Self.work("SK-C-5", recordId: "oai:r:1")
        (work.date, work.rights) = ("1642", "http://creativecommons.org/publicdomain/zero/1.0/")
        (work.landingPage, work.iiifManifest) =
            ("https://www.rijksmuseum.nl/en/collection/SK-C-5", "https://iiif.example/SK-C-5/manifest")
        var html = HTMLText(reservingCapacity: 1_024)
        GallerySite.detail(work, title: work.title, artist: "Rembrandt <van> Rijn", section: "a1-0", into: &html)
        let text = String(decoding: html.bytes, as: UTF8.self)
        for part in [
            "<a class=\"close\" href=\"#a1-0\"",
            "src=\"../thumbs/400/0a/SK-C-5.1.jpg\" srcset=\"../thumbs/200/0a/SK-C-5.1.jpg 200w, ../thumbs/400/0a/SK-C-5.1.jpg 400w\"",
            "<h3>The Night Watch, a title longer than a tile&#39;s two lines</h3>",
            "<dd><a href=\"#a1-0\">Rembrandt &lt;van&gt; Rijn</a></dd>", "<dt>Date</dt><dd>1642</dd>",
            "<dt>Object number</dt><dd>SK-C-5</dd>",
            "href=\"http://creativecommons.org/publicdomain/zero/1.0/\">CC0 1.0 (public domain dedication)</a>",
            "href=\"https://www.rijksmuseum.nl/en/collection/SK-C-5\">View at rijksmuseum.nl</a>",
            "href=\"https://iiif.example/SK-C-5/manifest\">IIIF manifest</a>",
            "<a href=\"#\(GallerySite.workAnchor(work))\">Link to this work</a>",
        ] {
            #expect(text.contains(part), "\(part) in \(text)")
        }
        var bare = Self.work("SK-C-6")
        bare.landingPage = "javascript:alert(1)"
        var bareHTML = HTMLText(reservingCapacity: 1_024)
        GallerySite.detail(bare, title: bare.title, artist: "", section: "a2-0", into: &bareHTML)
        let bareText = String(decoding: bareHTML.bytes, as: UTF8.self)
        #expect(bareText.contains("Unknown maker") && !bareText.contains("Date") && !bareText.contains("Rights"))
        #expect(!bareText.contains("href=\"javascript:") && bareText.contains("View at the source"))
    }

    @Test("each bucket page's JSON-LD parses: a VisualArtwork a work, a title that closes the script kept inside it")
    func linkedData() throws {
        let inputs = GalleryLinkTests.inputs(firstTitle: "</script><script>alert(1)</script> & more")
        let files = IndexLayout.files(for: ArtistIndex.build(from: inputs))
        var artworks: [[String: Any]] = []
        for (path, bytes) in files
        where path.hasPrefix("gallery/") && !path.contains("letter") && path.hasSuffix(".html") {
            let html = String(decoding: bytes, as: UTF8.self)
            let scripts = html.matches(of: /<script type="application\/ld\+json">(.*?)<\/script>/.dotMatchesNewlines())
            #expect(scripts.count == 1, "\(path)")
            let json = try #require(scripts.first).1
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let graph = try #require(object?["@graph"] as? [[String: Any]])
            #expect(graph.count == html.components(separatedBy: "<figure ").count - 1, "\(path)")
            artworks += graph
        }
        #expect(artworks.count == GalleryLinkTests.objects.count)
        let first = try #require(
            artworks.first { $0["identifier"] as? String == GalleryLinkTests.objects[0].objectNumber })
        #expect(first["name"] as? String == "</script><script>alert(1)</script> & more")
        #expect(first["@type"] as? String == "VisualArtwork" && first["dateCreated"] as? String == "c. 1600")
        #expect((first["creator"] as? [String: Any])?["name"] as? String == "Rembrandt van Rijn")
        #expect(first["license"] as? String == "http://rightsstatements.org/vocab/InC/1.0/")
        #expect(first["sameAs"] as? String == "https://www.museum.example/0")
        #expect((first["image"] as? String)?.hasPrefix("../thumbs/400/") == true)
        #expect(
            (first["url"] as? String)?.hasSuffix(".html#w") == false
                && (first["url"] as? String)?.contains(".html#w") == true)
    }
}
