import FetchWorker
import PipelineContract
import Testing

/// The planner on a source that only answers counts (planning asks nothing else).
@Suite("Crawl planning")
struct CrawlPlannerTests {
    struct CountingSource: CollectionSource {
        let total: Int
        var name: String { LegacyCollectionSource.sourceName }
        var reachableObjects: Int? { LegacyCollectionSource.reachableObjects }
        func fetch(_ request: PageRequest) async throws -> SourcePage { SourcePage(total: total, artworks: []) }
        func count(query: [String: String]) async throws -> SourceCount { SourceCount(total: total) }
    }

    static func plan(total: Int, pageSize: Int, pages: CrawlPages) async throws -> CrawlPlanner.Plan {
        try await CrawlPlanner.plan(
            source: CountingSource(total: total), query: [:], pages: pages, pageSize: pageSize, crawlId: "c")
    }

    @Test("no planned page passes p × ps = 10,000, whatever the page size", arguments: [30, 33, 64, 99, 100, 7])
    func reachablePagesOnly(pageSize: Int) async throws {
        let plan = try await Self.plan(total: 50_000, pageSize: pageSize, pages: .range(1...100_000))
        let last = try #require(plan.requests.last)
        #expect(last.page * pageSize <= LegacyCollectionSource.reachableObjects)
        #expect((last.page + 1) * pageSize > LegacyCollectionSource.reachableObjects, "and every reachable page")
        #expect(plan.lastPage == last.page)
    }

    @Test("--pages all refuses a query whose last objects no page size of this crawl reaches")
    func allBeyondReach() async throws {
        await #expect(throws: CrawlPlanningError.self) {
            _ = try await Self.plan(total: 9_995, pageSize: 30, pages: .all)
        }
        let fits = try await Self.plan(total: 9_995, pageSize: 25, pages: .all)
        #expect(fits.requests.count == 400 && fits.lastPage == 400)
        let small = try await Self.plan(total: 95, pageSize: 30, pages: .all)
        #expect(small.requests.map(\.page) == [1, 2, 3, 4])
    }

    @Test("a count as large as Int.max plans the reachable pages, or is beyond reach, never an overflow")
    func hugeCount() async throws {
        let plan = try await Self.plan(total: Int.max, pageSize: 30, pages: .range(1...5))
        #expect(plan.requests.map(\.page) == [1, 2, 3, 4, 5])
        #expect(plan.lastPage == LegacyCollectionSource.reachableObjects / 30)
        await #expect(throws: CrawlPlanningError.self) {
            _ = try await Self.plan(total: Int.max, pageSize: 30, pages: .all)
        }
    }
}
