/// The files that need every artist, assembled from the shards' and page partitions'
/// summaries: the bytes one copy holding the whole index would write.
package enum IndexAssembly {
    /// `index.json`, `index.html`, the letter pages, `gallery/artists.js` and the style sheet.
    /// - Parameters:
    ///   - artists: the last assembly's artists, placed and rendered again only where changed.
    ///   - letterPages: the last assembly's letter pages, made again only where changed.
    ///   - artistLists: the last assembly's runs of the lists of every artist, joined again only where changed.
    package static func sharedFiles(
        shards: [ShardSummary], pages: [PagesSummary], layout: IndexShards,
        artists: AssembledArtists = AssembledArtists(), letterPages: LetterPages = LetterPages(),
        artistLists: ArtistLists = ArtistLists(), site: SiteAddress? = nil
    ) -> [String: [UInt8]] {
        let entries = artists.entries(of: shards, layout: layout)
        var thumbnails = ["ok": 0, "noImage": 0, "failed": 0, "pending": 0]
        for shard in shards { thumbnails.merge(shard.thumbnails, uniquingKeysWith: +) }
        let totals = ArtistIndex.Totals(
            artists: entries.count, works: entries.map(\.works).reduce(0, +), pages: pages.map(\.pages).reduce(0, +),
            failedPages: pages.map(\.failedPages).reduce(0, +), thumbnails: thumbnails)
        return IndexLayout.sharedFiles(
            totals: totals, crawls: crawls(pages.flatMap(\.crawls)), artists: entries, letterPages: letterPages,
            artistLists: artistLists, site: site)
    }

    /// One crawl from its partitions' parts: source and query from its lowest fetched page id, the
    /// largest total, every page, the gaps below the highest page seen.
    /// Sorted and counted off in arrays: two sets of a crawl's 50,000 pages took a tenth of an
    /// assembly at ten million works.
    static func crawls(_ parts: [PagesSummary.Crawl]) -> [ArtistIndex.Crawl] {
        PagesSummary.Crawl.merging(parts).map { crawl in
            var indexed: [Int] = []
            indexed.reserveCapacity(crawl.pagesIndexed.count)
            for page in crawl.pagesIndexed.sorted() where page != indexed.last { indexed.append(page) }
            let failed = crawl.failedPages.sorted { ($0.page, $0.reason) < ($1.page, $1.reason) }
            let highest = max(indexed.last ?? 0, failed.map(\.page).max() ?? 0)
            var known = [Bool](repeating: false, count: max(highest, 0) + 1)
            for page in indexed + failed.map(\.page) where page > 0 { known[page] = true }
            return ArtistIndex.Crawl(
                crawlId: crawl.crawlId, source: crawl.source, query: crawl.query, total: crawl.total,
                pagesIndexed: indexed, gaps: highest > 0 ? (1...highest).filter { !known[$0] } : [],
                failedPages: failed)
        }
    }
}
