import ArtpipeSupport
import Foundation
import PipelineContract

/// Turns a query into the page requests of a crawl.
package enum CrawlPlanner {
    /// What a crawl will publish.
    package struct Plan: Sendable {
        package var requests: [PageRequest]
        /// Objects the query matches.
        package var total: Int
        /// False when at least `total` match, as far as the source could say.
        package var totalIsExact = true
        /// Pages the query has within the API's reach.
        package var lastPage: Int
    }

    /// Plans numbered pages: those that hold objects and lie within the API's reach
    /// (`page × pageSize ≤ 10,000` for the legacy API, 4,000 for Flickr). A query beyond that
    /// reach fails with `--pages all` rather than silently missing objects, and says how to split it.
    package static func plan(
        source: any CollectionSource, query: [String: String], pages: CrawlPages, pageSize: Int, crawlId: String
    ) async throws -> Plan {
        let count = try await count(source: source, query: query)
        if source.isCursorPaged {
            return try planCursor(
                source: source, query: query, pages: pages, pageSize: pageSize, crawlId: crawlId, count: count)
        }
        // The API refuses p × ps over its reach: with a page size that does not divide it, the
        // last reachable page ends below it.
        let limit = source.reachableObjects ?? Int.max
        let reachablePages = limit / pageSize
        let lastPage = min(pageCount(holding: count.total, of: pageSize), reachablePages)
        let reachable = min(count.total, reachablePages * pageSize)
        if pages == .all, count.total > reachable, let splitting = source as? any RangeSplittingSource {
            return try await planRanges(source: splitting, query: query, pageSize: pageSize, crawlId: crawlId)
        }
        if pages == .all, count.total > reachable {
            throw CrawlPlanningError.beyondReach(
                total: count.total, reachable: reachable, limit: limit, facets: count.facets)
        }
        let wanted: ClosedRange<Int>
        switch pages {
        case .all: wanted = 1...max(lastPage, 1)
        case .range(let range): wanted = range
        }
        let requested = wanted.clamped(to: 1...max(lastPage, 1))
        guard lastPage > 0, wanted.lowerBound <= lastPage else {
            return Plan(requests: [], total: count.total, lastPage: lastPage)
        }
        let requests = requested.map {
            PageRequest(crawlId: crawlId, source: source.name, query: query, page: $0, pageSize: pageSize)
        }
        return Plan(requests: requests, total: count.total, lastPage: lastPage)
    }

    /// A query past the reach, cut into ranges that fit: their pages numbered on through the
    /// crawl, each range's first page known to its requests.
    private static func planRanges(
        source: any RangeSplittingSource, query: [String: String], pageSize: Int, crawlId: String
    ) async throws -> Plan {
        var requests: [PageRequest] = []
        var total = 0
        for range in try await source.ranges(of: query, pageSize: pageSize) where range.total > 0 {
            let firstPage = requests.count + 1
            for offset in 0..<pageCount(holding: range.total, of: pageSize) {
                requests.append(
                    source.request(
                        crawlId: crawlId, query: range.query, page: firstPage + offset, firstPage: firstPage,
                        pageSize: pageSize))
            }
            total += range.total
        }
        return Plan(requests: requests, total: total, lastPage: requests.count)
    }

    /// The pages of `pageSize` (at least 1) that `objects` fill, the last one part full, for any
    /// count a source answers: `Int.max` gives its pages rather than an overflow.
    static func pageCount(holding objects: Int, of pageSize: Int) -> Int {
        objects / pageSize + (objects % pageSize == 0 ? 0 : 1)
    }

    /// Delays between attempts at a count the service could not answer for the moment (an
    /// HTML maintenance page, Flickr's `stat: fail`, a request the fetcher gave up on for now).
    package static let countRetryDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]

    private static func count(source: any CollectionSource, query: [String: String]) async throws -> SourceCount {
        for delay in countRetryDelays {
            do {
                return try await source.count(query: query)
            } catch {
                let failure = FailureClass.of(error)
                guard !failure.isForGood else { throw error }
                try await Task.sleep(for: max(delay, failure.retryAfter ?? .zero))
            }
        }
        return try await source.count(query: query)
    }

    /// A cursor-paged crawl starts at page 1; FetchWorker follows the cursor up to the last wanted page.
    private static func planCursor(
        source: any CollectionSource, query: [String: String], pages: CrawlPages, pageSize: Int, crawlId: String,
        count: SourceCount
    ) throws -> Plan {
        let lastPage: Int?
        switch pages {
        case .all: lastPage = nil
        case .range(let range):
            guard range.lowerBound == 1 else { throw CrawlPlanningError.cursorStartsAtOne(source: source.name) }
            lastPage = range.upperBound
        }
        let cursor = source.firstCursor(count: count, lastPage: lastPage)
        let first = PageRequest(
            crawlId: crawlId, source: source.name, query: query, page: 1, pageSize: pageSize,
            cursor: cursor?.isEmpty == false ? cursor : nil)
        var plan = Plan(requests: [first], total: count.total, lastPage: lastPage ?? 1)
        plan.totalIsExact = count.isExact
        return plan
    }

    /// The default crawl id: the same query always makes the same crawl.
    package static func defaultCrawlId(source: String, query: [String: String]) -> String {
        "\(source):\(PageID.queryHash(query))"
    }
}

/// Why a crawl cannot start.
package enum CrawlPlanningError: Error, CustomStringConvertible {
    case beyondReach(total: Int, reachable: Int, limit: Int, facets: [String: [String: Int]])
    case cursorStartsAtOne(source: String)
    /// A range that cannot be cut further (one second of uploads) still matches more than the reach.
    case unsplittable(range: String, total: Int, limit: Int)

    package var description: String {
        switch self {
        case .unsplittable(let range, let total, let limit):
            return
                "\(range) alone matches \(total) objects, past the \(limit) the API serves per query, and cannot be "
                + "cut further: narrow the query (tags=, user_id=, license=…) or crawl a page range with --pages"
        case .cursorStartsAtOne(let source):
            return "\(source) is cursor-paged: --pages must be all or start at 1 (1-N)"
        case .beyondReach(let total, let reachable, let limit, let facets):
            var text =
                "the query matches \(total) objects but the API serves at most \(reachable) per query, "
                + "so \(total - reachable) would be unreachable; split it into queries under \(reachable) objects"
            // Suggest the facet whose largest value is smallest: its parts fit best.
            if let (name, values) = facets.filter({ !$0.value.isEmpty }).min(by: {
                ($0.value.values.max() ?? 0) < ($1.value.values.max() ?? 0)
            }) {
                let largest = values.sorted { $0.value > $1.value }.prefix(3).map { "\(name)=\($0.key) (\($0.value))" }
                text += ", e.g. with --query \(largest.joined(separator: ", "))"
            }
            if reachable < limit {
                text += ", or use a --page-size that divides \(limit) (such as 100)"
            }
            return text + ", or crawl a page range with --pages"
        }
    }
}
