import ArtpipeSupport
import Foundation
import Testing

@testable import IndexWorker

@Suite("Open Graph properties of the gallery's pages")
struct OpenGraphTests {
    static let address = SiteAddress("https://gallery.example.org/art")!

    /// `<meta property="name" content="…">`'s content on `page`, each time it is there.
    static func properties(_ name: String, on page: String) -> [String] {
        page.components(separatedBy: "<meta property=\"\(name)\" content=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
    }

    @Test(
        "with a site: each bucket page names itself, its works and its first work's image, absolute, escaped; the front and letter pages themselves"
    )
    func withSite() throws {
        let site = GallerySiteTests.site(at: Self.address)
        let buckets = site.filter {
            $0.key.hasPrefix("gallery/") && !$0.key.contains("letter-") && $0.key.hasSuffix(".html")
        }
        #expect(buckets.count >= 2)
        var images: [String] = []
        for (path, page) in buckets {
            let url = "https://gallery.example.org/art/\(path)"
            #expect(page.contains("<link rel=\"canonical\" href=\"\(url)\">"), "\(path)")
            #expect(Self.properties("og:url", on: page) == [url], "\(path)")
            #expect(Self.properties("og:type", on: page) == ["website"], "\(path)")
            let title = try #require(page.components(separatedBy: "<title>").dropFirst().first?.prefix { $0 != "<" })
            #expect(Self.properties("og:title", on: page) == [String(title)], "\(path)")
            #expect(Self.properties("og:description", on: page) == ["1 work"], "\(path)")
            // Before the body: a preview reads the head only.
            let head = try #require(page.components(separatedBy: "<body>").first)
            #expect(head.contains("og:url"), "\(path)")
            images += Self.properties("og:image", on: page)
        }
        // A1, A2 and Z1 have thumbnails (the larger shown); U1 has no image; K1's failed.
        #expect(
            images.sorted() == ["A1", "A2", "Z1"].map { "https://gallery.example.org/art/thumbs/400/\($0).jpg" })
        let all = buckets.values.joined()
        #expect(
            Set(Self.properties("og:image:alt", on: all)) == [
                "&quot;Z&quot;", "&lt;script&gt;alert(1)&lt;/script&gt;", "Two",
            ])

        let front = try #require(site["index.html"])
        #expect(Self.properties("og:url", on: front) == ["https://gallery.example.org/art/index.html"])
        #expect(Self.properties("og:title", on: front) == ["artpipe — 5 works by 5 artists"])
        #expect(Self.properties("og:image", on: front).isEmpty)

        for (path, page) in site where path.hasPrefix("gallery/letter-") {
            #expect(Self.properties("og:url", on: page) == ["https://gallery.example.org/art/\(path)"], "\(path)")
            #expect(Self.properties("og:image", on: page).isEmpty, "\(path)")
        }
        #expect(site.keys.contains { $0.hasPrefix("gallery/letter-") })
    }

    @Test("without a site, no page carries Open Graph properties or a canonical link: their URLs are absolute")
    func withoutSite() {
        for (path, page) in GallerySiteTests.site() where path.hasSuffix(".html") {
            #expect(!page.contains("og:") && !page.contains("rel=\"canonical\""), "\(path)")
        }
    }

    @Test("a thumbnail's path is percent-encoded in its absolute URL, as in the page's own links")
    func encodedImage() throws {
        let graph = OpenGraph(
            site: Self.address, title: "t", description: "d", path: "gallery/0a1.html",
            image: ("thumbs/200/a b%.jpg", "alt"))
        var html = HTMLText(reservingCapacity: 512)
        graph.write(into: &html)
        let text = String(decoding: html.bytes, as: UTF8.self)
        #expect(
            Self.properties("og:image", on: text) == [
                "https://gallery.example.org/art/" + GallerySite.link("thumbs/200/a b%.jpg")
            ])
        #expect(!text.contains("a b%"))
    }

    @Test("a checkpoint's rendering names the build and the site; no build, no identity")
    func renderingIdentity() {
        #expect(ShardRendering(build: "ab12", site: nil).identity == "ab12")
        #expect(ShardRendering(build: "ab12", site: Self.address).identity == "ab12 https://gallery.example.org/art/")
        #expect(ShardRendering(build: nil, site: Self.address).identity == nil)
        #expect(
            ShardRendering(build: "ab12", site: Self.address)
                != ShardRendering(build: "ab12", site: SiteAddress("https://other.example/")))
    }
}
