import Foundation
import Testing

@testable import IndexWorker

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("The gallery's sitemap")
struct SitemapTests {
    @Test("a site's address is an absolute http(s) URL without a query or fragment, kept with a final slash")
    func addresses() {
        #expect(SiteAddress("https://gallery.example.org")?.base == "https://gallery.example.org/")
        #expect(SiteAddress("http://museum.example/art/")?.base == "http://museum.example/art/")
        #expect(SiteAddress("HTTPS://Example.org/Gallery")?.base == "HTTPS://Example.org/Gallery/")
        #expect(
            SiteAddress("https://gallery.example.org:8443/a%20b/")?.base == "https://gallery.example.org:8443/a%20b/")
        for refused in [
            "", "gallery.example.org", "ftp://example.org/", "https://", "https:///path", "https://x/?a=1",
            "https://x/#top", "https://x/a b", "https://x/\"", "javascript:alert(1)", "https://x/é",
            "https://user:pw@gallery.example.org/", "https://@x/", "https://:80/", "https://x:abc/", "https://x:80:1/",
            "https://x/%zz", "https://x/a%2", "https://x/[a]", "https://-x/",
            "https://x/" + String(repeating: "a", count: 1_024),
        ] {
            #expect(SiteAddress(refused) == nil, "\(refused)")
        }
    }

    @Test("every page of the gallery once, front page and letters first, under the site; none without a site")
    func pages() throws {
        let site = try #require(SiteAddress("https://gallery.example.org/art"))
        let index = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 3_000, artists: 40))
        #expect(IndexLayout.files(for: index).keys.allSatisfy { !Sitemap.isSitemapFile($0) })
        let files = IndexLayout.files(for: index, site: site)
        let xml = String(decoding: try #require(files[Sitemap.path]), as: UTF8.self)
        let listed = xml.matches(of: /<loc>([^<]*)<\/loc>/).map { String($0.1) }
        let pages = files.keys.filter { $0.hasSuffix(".html") }
        #expect(listed.count == pages.count && Set(listed) == Set(pages.map { site.base + $0 }))
        #expect(listed.first == "https://gallery.example.org/art/index.html")
        #expect(listed[1].hasPrefix("https://gallery.example.org/art/gallery/letter-"))
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns="))
        #expect(XMLParser(data: Data(xml.utf8)).parse())
        #expect(files.keys.allSatisfy(IndexLayout.isIndexFile), "a sitemap is the index's own, so a copy removes it")
    }

    @Test("past the protocol's most URLs a file, the URLs are split and sitemap.xml is their index")
    func split() throws {
        let site = try #require(SiteAddress("https://g.example/"))
        let pages = (0..<7).map { "gallery/\($0).html" }
        let files = Sitemap.files(site: site, pages: pages, maximumURLs: 3)
        #expect(Set(files.keys) == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"])
        let index = String(decoding: try #require(files["sitemap.xml"]), as: UTF8.self)
        #expect(index.contains("<sitemapindex ") && index.matches(of: /<sitemap><loc>/).count == 3)
        #expect(index.contains("<loc>https://g.example/sitemap-3.xml</loc>"))
        let last = String(decoding: try #require(files["sitemap-3.xml"]), as: UTF8.self)
        #expect(last.matches(of: /<url>/).count == 1 && last.contains("https://g.example/gallery/6.html"))
        for path in files.keys { #expect(Sitemap.isSitemapFile(path) && XMLParser(data: Data(files[path]!)).parse()) }
        for other in ["sitemap-.xml", "sitemap-1a.xml", "sitemap.xml.tmp", "gallery/sitemap.xml", "sitemap-1.html"] {
            #expect(!Sitemap.isSitemapFile(other), "\(other)")
        }
    }
}
