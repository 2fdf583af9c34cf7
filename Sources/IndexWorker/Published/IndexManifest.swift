import ArtpipeSupport

/// `index.json` of schema `artpipe-index/2`: what a program reads first. Totals, crawls, and
/// every artist with its count and where its works are; the works themselves are in
/// `works/<bucket>.jsonl`, one bucket per entry of ``Artist/buckets``.
package struct IndexManifest: Codable, Sendable, Equatable {
    var schema: String
    /// The bucket count and slice size the artists' buckets were computed with.
    var bucketCount: Int
    var sliceSize: Int
    package var totals: ArtistIndex.Totals
    package var crawls: [ArtistIndex.Crawl]
    package var artists: [Artist]

    package struct Artist: Codable, Sendable, Equatable {
        /// As the source writes it; empty for an unknown maker.
        package var name: String
        package var works: Int
        /// The bucket of each slice of the artist's works, in order: slice `n` is in
        /// `works/<buckets[n]>.jsonl` and on `gallery/<buckets[n]>.html`.
        var buckets: [String]
    }
}

extension IndexManifest {
    /// The bytes of `index.json`: one crawl and one artist per line, so it reads and diffs well.
    /// - Parameter artists: every artist's line in index order, in runs (``ArtistLists``).
    static func render(totals: ArtistIndex.Totals, crawls: [ArtistIndex.Crawl], artists: [[UInt8]]) -> [UInt8] {
        var json = JSONText(reservingCapacity: artists.map { $0.count + 2 }.reduce(4096, +))
        json.raw("{\"schema\":")
        json.string(IndexLayout.schemaName)
        json.key("bucketCount")
        json.int(IndexLayout.bucketCount)
        json.key("sliceSize")
        json.int(IndexLayout.sliceSize)
        json.raw(",\n\"totals\":{")
        json.key("artists", first: true)
        json.int(totals.artists)
        json.key("works")
        json.int(totals.works)
        json.key("pages")
        json.int(totals.pages)
        json.key("failedPages")
        json.int(totals.failedPages)
        json.key("thumbnails")
        json.counts(totals.thumbnails)
        json.raw("},\n\"crawls\":[")
        for (number, crawl) in crawls.enumerated() {
            json.raw(number == 0 ? "\n" : ",\n")
            render(crawl, into: &json)
        }
        json.raw("],\n\"artists\":[")
        for (number, run) in artists.enumerated() {
            json.raw(number == 0 ? "\n" : ",\n")
            json.part(run)
        }
        json.raw("]}\n")
        return json.bytes
    }

    /// One artist's line: `{"name":…,"works":…,"buckets":[…]}`, a bucket for each slice of its works.
    static func artistLine(name: String, works: Int, buckets: [Int]) -> [UInt8] {
        var json = JSONText(reservingCapacity: name.utf8.count + 40 + 6 * buckets.count)
        json.raw("{\"name\":")
        json.string(name)
        json.key("works")
        json.int(works)
        json.raw(",\"buckets\":[")
        for (slice, bucket) in buckets.enumerated() {
            if slice > 0 { json.byte(UInt8(ascii: ",")) }
            json.string(IndexLayout.bucketName(bucket))
        }
        json.raw("]}")
        return json.bytes
    }

    private static func render(_ crawl: ArtistIndex.Crawl, into json: inout JSONText) {
        json.raw("{\"crawlId\":")
        json.string(crawl.crawlId)
        json.key("source")
        json.string(crawl.source)
        json.key("query")
        json.byte(UInt8(ascii: "{"))
        for (number, name) in crawl.query.keys.sorted().enumerated() {
            if number > 0 { json.byte(UInt8(ascii: ",")) }
            json.string(name)
            json.byte(UInt8(ascii: ":"))
            json.string(crawl.query[name] ?? "")
        }
        json.byte(UInt8(ascii: "}"))
        json.key("total")
        json.int(crawl.total)
        for (key, pages) in [("pagesIndexed", crawl.pagesIndexed), ("gaps", crawl.gaps)] {
            json.byte(UInt8(ascii: ","))
            json.string(key)
            json.raw(":[")
            for (number, page) in pages.enumerated() {
                if number > 0 { json.byte(UInt8(ascii: ",")) }
                json.int(page)
            }
            json.byte(UInt8(ascii: "]"))
        }
        json.raw(",\"failedPages\":[")
        for (number, failure) in crawl.failedPages.enumerated() {
            json.raw(number == 0 ? "{\"page\":" : ",{\"page\":")
            json.int(failure.page)
            json.key("reason")
            json.string(failure.reason)
            json.byte(UInt8(ascii: "}"))
        }
        json.raw("]}")
    }
}
