import PipelineContract
import Testing

@testable import IndexWorker

@Suite("The pages stage's partition")
struct PagePartitionTests {
    static let request = PageRequest(crawlId: "c", source: "legacy", query: ["s": "x"], page: 3, pageSize: 10)

    static var page: Page {
        Page(
            request: request, total: 40,
            artworks: [
                Artwork(objectNumber: "A", title: "t", artist: "M", imageURL: nil, width: nil, height: nil, position: 0)
            ])
    }

    @Test("a fetched page wins over its failure in either order; a restore from the changelog gives the same summary")
    func pageBeatsFailure() throws {
        var pageFirst = PagePartition(partition: 0)
        var failureFirst = PagePartition(partition: 0)
        var changelog: [PageEntry] = []
        changelog += [
            try pageFirst.apply(.page(Self.page)).entry,
            try pageFirst.apply(.failedRequest(Self.request, reason: "HTTP 500")).entry,
        ]
        .compactMap { $0 }
        let failed = try failureFirst.apply(.failedRequest(Self.request, reason: "HTTP 500"))
        #expect(failed.entry?.failure == "HTTP 500" && failed.works.isEmpty)
        #expect(
            try failureFirst.apply(.failedRequest(Self.request, reason: "HTTP 500")) == .init(),
            "the same failure again")
        _ = try failureFirst.apply(.page(Self.page))
        #expect(pageFirst.summary == failureFirst.summary)
        #expect(pageFirst.summary.pages == 1 && pageFirst.summary.failedPages == 0)
        var restored = PagePartition(partition: 0)
        for entry in changelog { try restored.restore(entry) }
        #expect(restored.summary == pageFirst.summary)
    }

    @Test("thumbnails read before their page wait for it, in the changelog too; then a row for its work")
    func thumbnails() throws {
        var item = PageThumbnails.Item(objectNumber: "A", status: .noImage)
        item.imageURL = "https://img/A.jpg"
        let thumbnails = PageThumbnails(pageId: Self.page.pageId, items: [item])
        for restart in [false, true] {
            var partition = PagePartition(partition: 0)
            let early = try partition.apply(.thumbnails(thumbnails))
            #expect(early.works.isEmpty && early.entry?.thumbnails == thumbnails)
            #expect(partition.summary.pages == 0 && partition.summary.crawls.isEmpty, "a waiting page is no page yet")
            if restart {
                // A new owner restored from the changelog before the page came.
                partition = PagePartition(partition: 0)
                try partition.restore(early.entry!)
            }
            let fetched = try partition.apply(.page(Self.page))
            #expect(fetched.works.filter { $0.key.contains("\u{1F}i\u{1F}") }.map(\.work.id) == ["A"])
            #expect(try partition.apply(.thumbnails(thumbnails)).works.map(\.work.id) == ["A"])
        }
    }
}
