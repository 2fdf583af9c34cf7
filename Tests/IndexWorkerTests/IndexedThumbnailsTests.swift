import Foundation
import PipelineContract
import Testing

@testable import IndexWorker

@Suite("Thumbnails as the index keeps them")
struct IndexedThumbnailsTests {
    static let message = PageThumbnails(
        pageId: "rijksmuseum:q:1",
        items: [
            .init(
                objectNumber: "SK-A-1", status: .ok,
                files: [
                    .init(
                        size: 200, path: "thumbs/200/0a/SK-A-1.jpg", width: 200, height: 150, bytes: 9_000, sha256: "ab"
                    ),
                    .init(
                        size: 400, path: "thumbs/400/0a/SK-Ä-1.jpg", width: 400, height: 300, bytes: 30_000,
                        sha256: "cd"),
                ]),
            .init(objectNumber: "SK-A-2", status: .failed, reason: "HTTP 404 from the image host"),
            .init(objectNumber: "SK-A-3", status: .noImage),
            // Listed twice: the first is the one a work shows.
            .init(
                objectNumber: "SK-A-2", status: .ok,
                files: [
                    .init(size: 200, path: "thumbs/200/x.jpg", width: 1, height: 1, bytes: 1, sha256: "ef")
                ]),
        ])

    @Test("each item's status, reason and files' sizes and paths, as listed")
    func keeps() {
        let kept = IndexedThumbnails(Self.message)
        #expect(kept.pageId == Self.message.pageId)
        #expect(kept.count == 4)
        #expect((0..<4).map(kept.objectNumber) == ["SK-A-1", "SK-A-2", "SK-A-3", "SK-A-2"])
        #expect((0..<4).map(kept.status) == [.ok, .failed, .noImage, .ok])
        #expect((0..<4).map(kept.reason) == [nil, "HTTP 404 from the image host", nil, nil])
        #expect(kept.files(0).map(\.size) == [200, 400])
        #expect(kept.files(0).map(\.path) == ["thumbs/200/0a/SK-A-1.jpg", "thumbs/400/0a/SK-Ä-1.jpg"])
        #expect(kept.files(1).isEmpty && kept.files(2).isEmpty)
        #expect(kept.files(3).map(\.path) == ["thumbs/200/x.jpg"])
        #expect(kept.positions() == ["SK-A-1": 0, "SK-A-2": 1, "SK-A-3": 2])
    }

    @Test("state in the message's own form reads as it is; what is written reads back the same, without digests")
    func stateFiles() throws {
        let earlier = try JSONEncoder().encode(Self.message)
        let read = try JSONDecoder().decode(IndexedThumbnails.self, from: earlier)
        #expect(read == IndexedThumbnails(Self.message))
        let written = try JSONEncoder().encode(read)
        #expect(try JSONDecoder().decode(IndexedThumbnails.self, from: written) == read)
        let text = String(decoding: written, as: UTF8.self)
        #expect(!text.contains("sha256") && !text.contains("bytes") && text.contains("SK-A-1.jpg"))
    }

    @Test("a work shows its first item's files by size, its status and reason")
    func work() throws {
        let page = Page(
            request: PageRequest(crawlId: "q", source: "rijksmuseum", query: [:], page: 1, pageSize: 3),
            total: 3,
            artworks: ["SK-A-1", "SK-A-2", "SK-A-4"].enumerated().map {
                Artwork(
                    objectNumber: $1, title: "T", artist: "A", imageURL: nil, width: nil, height: nil, position: $0)
            })
        var inputs = IndexInputs()
        inputs.add(page)
        inputs.add(PageThumbnails(pageId: page.pageId, items: Self.message.items))
        let works = Dictionary(
            uniqueKeysWithValues: ArtistIndex.build(from: inputs).artists.flatMap(\.works).map { ($0.objectNumber, $0) }
        )
        #expect(works["SK-A-1"]?.thumbnails == ["200": "thumbs/200/0a/SK-A-1.jpg", "400": "thumbs/400/0a/SK-Ä-1.jpg"])
        #expect(works["SK-A-2"]?.thumbnailStatus == "failed")
        #expect(works["SK-A-2"]?.thumbnailReason == "HTTP 404 from the image host")
        #expect(works["SK-A-4"]?.thumbnailStatus == "pending")
    }
}
