import ArtpipeSupport

/// `sitemap.xml` (the Sitemaps protocol, sitemaps.org): the gallery's pages as absolute URLs
/// under a ``SiteAddress``, so a search engine finds every page, and on the bucket pages every
/// work's JSON-LD. The front page, the letter pages and the bucket pages that hold works, in that
/// order. Past ``maximumURLs`` the URLs are split into `sitemap-<n>.xml` files, and
/// `sitemap.xml` becomes their index, as the protocol asks.
enum Sitemap {
    static let path = "sitemap.xml"
    /// The protocol's most URLs in one file.
    static let maximumURLs = 50_000

    /// `sitemap-<n>.xml`, the `n`th file (from 1) of a split sitemap.
    static func partPath(_ number: Int) -> String { "sitemap-\(number).xml" }

    /// Whether `path` is a file this type writes: `sitemap.xml` or `sitemap-<digits>.xml`.
    static func isSitemapFile(_ path: String) -> Bool {
        guard path != Self.path else { return true }
        guard path.hasPrefix("sitemap-"), path.hasSuffix(".xml") else { return false }
        let digits = path.utf8.dropFirst("sitemap-".utf8.count).dropLast(".xml".utf8.count)
        return !digits.isEmpty && digits.allSatisfy { (48...57).contains($0) }
    }

    /// The sitemap's files for `pages` (paths relative to the output, in order) under `site`.
    static func files(site: SiteAddress, pages: [String], maximumURLs: Int = maximumURLs) -> [String: [UInt8]] {
        guard pages.count > maximumURLs else { return [path: urlSet(pages, site: site)] }
        var files: [String: [UInt8]] = [:]
        var index = HTMLText(reservingCapacity: 128 * (pages.count / maximumURLs + 1))
        index.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        index.raw("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
        for (number, first) in stride(from: 0, to: pages.count, by: maximumURLs).enumerated() {
            let part = partPath(number + 1)
            files[part] = urlSet(Array(pages[first..<min(first + maximumURLs, pages.count)]), site: site)
            index.raw("<sitemap><loc>")
            index.text(site.url(of: part))
            index.raw("</loc></sitemap>\n")
        }
        index.raw("</sitemapindex>\n")
        files[path] = index.bytes
        return files
    }

    private static func urlSet(_ pages: [String], site: SiteAddress) -> [UInt8] {
        var xml = HTMLText(reservingCapacity: 96 * pages.count + 128)
        xml.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        xml.raw("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
        for page in pages {
            xml.raw("<url><loc>")
            xml.text(site.url(of: page))
            xml.raw("</loc></url>\n")
        }
        xml.raw("</urlset>\n")
        return xml.bytes
    }
}
