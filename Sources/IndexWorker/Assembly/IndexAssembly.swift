/// The files that need every artist, assembled from the shards' and page partitions'
/// summaries: the bytes one copy holding the whole index would write.
package enum IndexAssembly {
    /// `index.json`, `index.html`, the letter pages, `gallery/artists.js` and the style sheet.
    package static func sharedFiles(
        shards: [ShardSummary], pages: [PagesSummary], layout: IndexShards, keys: CollationKeys = CollationKeys(),
        letterPages: LetterPages = LetterPages()
    ) -> [String: [UInt8]] {
        let unsorted = shards.flatMap(\.artists)
        let sorted = zip(keys.keys(of: unsorted.map(\.name)), unsorted).map { (key: $0, artist: $1) }
            .sorted { ArtistIndex.artistOrder($0.artist.name, $0.key, $1.artist.name, $1.key) }
        let artists = sorted.map(\.artist)
        var thumbnails = ["ok": 0, "noImage": 0, "failed": 0, "pending": 0]
        for shard in shards { thumbnails.merge(shard.thumbnails, uniquingKeysWith: +) }
        let totals = ArtistIndex.Totals(
            artists: artists.count, works: artists.map(\.works).reduce(0, +), pages: pages.map(\.pages).reduce(0, +),
            failedPages: pages.map(\.failedPages).reduce(0, +), thumbnails: thumbnails)
        let content = IndexContent(
            totals: totals, crawls: crawls(pages.flatMap(\.crawls)),
            artists: sorted.map {
                IndexContent.Artist(name: $0.artist.name, workCount: $0.artist.works, collationKey: $0.key)
            },
            works: { _, _ in [] })
        return IndexLayout.sharedFiles(
            for: content, plan: IndexLayout.Plan(content, shards: layout), letterPages: letterPages)
    }

    /// One crawl from its partitions' parts: source and query from its lowest fetched page id, the
    /// largest total, every page, the gaps below the highest page seen.
    static func crawls(_ parts: [PagesSummary.Crawl]) -> [ArtistIndex.Crawl] {
        PagesSummary.Crawl.merging(parts).map { crawl in
            let indexed = Array(Set(crawl.pagesIndexed)).sorted()
            let failed = crawl.failedPages.sorted { ($0.page, $0.reason) < ($1.page, $1.reason) }
            let highest = max(indexed.last ?? 0, failed.map(\.page).max() ?? 0)
            let known = Set(indexed).union(failed.map(\.page))
            return ArtistIndex.Crawl(
                crawlId: crawl.crawlId, source: crawl.source, query: crawl.query, total: crawl.total,
                pagesIndexed: indexed, gaps: highest > 0 ? (1...highest).filter { !known.contains($0) } : [],
                failedPages: failed)
        }
    }
}
