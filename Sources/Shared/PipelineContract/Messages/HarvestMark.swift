/// A completed harvest of a versioned source, published by FetchWorker to `artpipe.harvests`
/// (compacted, keyed by ``harvestKey``) when it fetched the last page. The next incremental
/// harvest of the same query (`crawl --since last`) starts from ``harvestedThrough``; a
/// harvest that never reached its last page leaves no mark, so it is not counted as done.
package struct HarvestMark: ArtpipeMessage, Equatable {
    package static let schemaName = "harvest-mark"

    package var v: Int
    /// The source and its query without `from` and `until`: what "the same query" means.
    package var harvestKey: String
    package var source: String
    package var query: [String: String]
    package var crawlId: String
    /// Everything the source changed up to this time (UTC, `YYYY-MM-DDThh:mm:ssZ`) is in: the
    /// harvest's `until`, or the server's clock at its first answer.
    package var harvestedThrough: String
    /// The page that completed it.
    var lastPageId: String

    package var key: String { harvestKey }

    package init(
        source: String, query: [String: String], crawlId: String, harvestedThrough: String, lastPageId: String
    ) {
        self.v = Self.schemaVersion
        self.harvestKey = Self.harvestKey(source: source, query: query)
        self.source = source
        self.query = query.filter { !Self.windowParameters.contains($0.key) }
        self.crawlId = crawlId
        self.harvestedThrough = harvestedThrough
        self.lastPageId = lastPageId
    }

    /// The parameters that choose a time window rather than what is harvested.
    static let windowParameters: Set<String> = ["from", "until"]

    /// `<source>:<query-hash>` over the query without `from` and `until`.
    package static func harvestKey(source: String, query: [String: String]) -> String {
        "\(source):\(PageID.queryHash(query.filter { !windowParameters.contains($0.key) }))"
    }
}
