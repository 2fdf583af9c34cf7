import ArtpipeSupport
import Foundation
import PipelineContract
import Testing

@testable import IndexWorker

@Suite("A work's detail on its bucket page")
struct WorkDetailTests {
    @Test("a known rights statement is named in words with its link; another URL is a link; other text stays text")
    func rightsInWords() {
        let cases: [(String, String)] = [
            ("http://creativecommons.org/publicdomain/zero/1.0/", "CC0 1.0 (public domain dedication)"),
            ("https://creativecommons.org/publicdomain/mark/1.0/", "Public Domain Mark 1.0"),
            ("http://creativecommons.org/licenses/by-sa/4.0/", "CC BY-SA 4.0"),
            ("https://creativecommons.org/licenses/by-nc-nd/2.0/deed.en", "CC BY-NC-ND 2.0"),
            ("http://rightsstatements.org/vocab/InC/1.0/", "In Copyright"),
            ("http://rightsstatements.org/vocab/NoC-NC/1.0/", "No Copyright – Non-Commercial Use Only"),
            ("https://www.flickr.com/commons/usage/", "No known copyright restrictions"),
            ("https://museum.example/terms", "Rights statement"),
            ("  © Rijksmuseum, Amsterdam \n", "© Rijksmuseum, Amsterdam"),
            ("Public domain", "Public domain"),
        ]
        for (rights, words) in cases {
            let statement = RightsStatement(rights)
            #expect(statement.words == words, "\(rights)")
            let trimmed = rights.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(statement.link == (trimmed.hasPrefix("http") ? trimmed : nil), "\(rights)")
        }
    }

    @Test("a web address is an http(s) URL with a host and nothing that would end an attribute or a tag")
    func webAddresses() {
        let address = WebAddress("HTTPS://www.Example.org/Terms/of//use?x=1#top")
        #expect(address?.host == "example.org")
        #expect(address?.path == ["terms", "of", "use"])
        #expect(WebAddress("http://example.org")?.path == [])
        for text in [
            "ftp://example.org/a", "example.org", "http://", "https://?q", "http://example.org/a b",
            "http://example.org/\"onmouseover", "https://example.org/<script>", "https://example.org/a>",
            "https://example.org/\ta",
        ] {
            #expect(WebAddress(text) == nil, "\(text)")
            #expect(!WebAddress.isLink(text), "\(text)")
        }
        let quoted = RightsStatement("https://example.org/\"terms")
        #expect(quoted.link == nil && quoted.words == "https://example.org/\"terms", "not a link: shown as its text")
    }

    static func work(_ objectNumber: String, recordId: String? = nil) -> ArtistIndex.Work {
        ArtistIndex.Work(
            objectNumber: objectNumber, title: "The Night Watch, a title longer than a tile's two lines",
            pageId: "oai-pmh:q:1", page: 1, imageURL: "https://img/1.jpg", thumbnailStatus: "ok",
            thumbnailReason: nil,
            thumbnails: ["200": "thumbs/200/0a/SK-C-5.1.jpg", "400": "thumbs/400/0a/SK-C-5.1.jpg"],
            recordId: recordId, datestamp: nil)
    }

    @Test("a work's anchor is its source, object number and record id, and nothing else of its line")
    func anchors() {
        let anchor = GallerySite.workAnchor(Self.work("SK-C-5", recordId: "oai:r:1"))
        #expect(anchor.count == 17 && anchor.hasPrefix("w"))
        var moved = Self.work("SK-C-5", recordId: "oai:r:1")
        (moved.pageId, moved.page, moved.title, moved.date) = ("oai-pmh:q:9", 9, "Another title", "1642")
        #expect(GallerySite.workAnchor(moved) == anchor)
        #expect(GallerySite.workAnchor(Self.work("SK-C-5", recordId: "oai:r:2")) != anchor)
        #expect(GallerySite.workAnchor(Self.work("SK-C-5")) != anchor)
        #expect(GallerySite.workAnchor(Self.work("SK-C-6", recordId: "oai:r:1")) != anchor)
        var otherSource = Self.work("SK-C-5", recordId: "oai:r:1")
        otherSource.pageId = "rijksmuseum-oai:q:1"
        #expect(GallerySite.workAnchor(otherSource) != anchor)
        #expect(GallerySite.workAnchor(Self.work("SK-C-5oai:r:1")) != anchor, "the object number and record id apart")
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
        let license = first["license"] as? [String: Any]
        #expect(license?["@id"] as? String == "http://rightsstatements.org/vocab/InC/1.0/")
        #expect(license?["name"] as? String == "In Copyright")
        #expect(first["sameAs"] as? String == "https://www.museum.example/0")
        #expect((first["subjectOf"] as? [String: Any])?["url"] as? String == "https://iiif.example/0")
        // Both thumbnails name the files the tile's image names, from the bucket page.
        let image = try #require(first["image"] as? String)
        let thumbnail = try #require(first["thumbnailUrl"] as? String)
        #expect(image.hasPrefix("../thumbs/400/") && thumbnail.hasPrefix("../thumbs/200/"))
        for url in [image, thumbnail] {
            let (path, _) = try GalleryLinkTests.resolve(url, from: "gallery/000.html")
            #expect(path.hasPrefix("thumbs/") && GalleryLinkTests.objects.contains { path.contains($0.fileName) })
        }
        let anchor = try #require((first["@id"] as? String)?.dropFirst())
        #expect((first["url"] as? String)?.hasSuffix(".html#\(anchor)") == true)
        #expect(files.values.contains { String(decoding: $0, as: UTF8.self).contains("<figure id=\"\(anchor)\"") })
        // A record's javascript: page is no link.
        let fourth = try #require(
            artworks.first { $0["identifier"] as? String == GalleryLinkTests.objects[3].objectNumber })
        #expect(fourth["sameAs"] == nil && fourth["subjectOf"] == nil)
    }
}
