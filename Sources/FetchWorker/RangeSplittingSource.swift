import PipelineContract

/// A source whose queries can be cut into ranges (Flickr's upload dates), so that a query
/// past the API's reach is crawled whole, range by range.
package protocol RangeSplittingSource: CollectionSource {
    /// Sub-queries that together match what `query` matches, each within the reach at
    /// `pageSize` (the whole pages of that size that fit ``CollectionSource/reachableObjects``),
    /// in a fixed order, with their counts. Throws ``CrawlPlanningError/unsplittable(range:total:limit:)``
    /// when a range that cannot be cut further is still past the reach.
    func ranges(of query: [String: String], pageSize: Int) async throws -> [(query: [String: String], total: Int)]

    /// The request of page `page` of a crawl whose range starts at crawl page `firstPage`.
    func request(
        crawlId: String, query: [String: String], page: Int, firstPage: Int, pageSize: Int
    ) -> PageRequest
}
