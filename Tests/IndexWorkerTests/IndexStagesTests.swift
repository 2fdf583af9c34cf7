import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import ObjectStorage
import PipelineContract
import Testing

@testable import IndexWorker

/// The index's three stages (docs/architecture.md, "The index at scale") run as copies in this
/// process over the embedded broker, each copy with its own state, all publishing to one folder.
@Suite("The index in three stages, over a broker", .serialized, .timeLimit(.minutes(10)))
struct IndexStagesTests {
    static let partitions = 3

    @Test(
        "copies publish the bytes one copy builds from the whole index; a copy joining, then the first leaving, never shows fewer works"
    )
    func copiesJoinAndLeave() async throws {
        let cluster = try TestCluster()
        for topic in [ArtpipeTopic.pages, ArtpipeTopic.thumbnails, ArtpipeTopic.deadLetters] + ArtpipeTopic.index {
            try cluster.broker.createTopic(topic, partitions: Self.partitions)
        }
        var inputs = Self.namedAsMuseumsDo(IndexLayoutTests.inputs(works: 1_500, artists: 40))
        var staged = inputs.pages.values.map { StagedIndexBuild.Input.page($0) }
        var records = try inputs.pages.values.map { try MessageCodec.record($0, topic: ArtpipeTopic.pages) }
        // Thumbnails for every other page: those works show them, the rest are pending.
        for page in inputs.pages.values where page.page % 2 == 0 {
            let items = page.artworks.map { artwork in
                var item = PageThumbnails.Item(
                    objectNumber: artwork.objectNumber, status: .ok,
                    files: [
                        .init(
                            size: 200, path: "thumbs/200/\(artwork.objectNumber).jpg", width: 200, height: 150,
                            bytes: 9, sha256: "s")
                    ])
                item.imageURL = artwork.imageURL
                return item
            }
            let thumbnails = PageThumbnails(pageId: page.pageId, items: items)
            inputs.add(thumbnails)
            staged.append(.thumbnails(thumbnails))
            records.append(try MessageCodec.record(thumbnails, topic: ArtpipeTopic.thumbnails))
        }
        // Thumbnails first for some: they wait for their page.
        try await cluster.producer.send(records.reversed())
        let expected = try StagedIndexBuild.files(staged.reversed(), partitions: Self.partitions)
        // Where the rules of 0.6 and the stages agree (one source, an image per work), their bytes do.
        #expect(
            expected
                == IndexLayout.files(for: ArtistIndex.build(from: inputs), shards: IndexShards(count: Self.partitions)))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("stages"))
        let output = FolderOutputStore(directory: folder)
        let first = try StagedCopy(brokers: cluster.brokers, output: output)
        var most = 0
        let pagesByNumber = Dictionary(uniqueKeysWithValues: inputs.pages.values.map { ($0.page, $0) })
        /// Publishes with every live copy, reading the manifest after each: never fewer works,
        /// and never a page counted whose works are not shown.
        func publishRound(_ copies: [StagedCopy]) async throws -> Bool {
            for copy in copies {
                try await copy.publisher.publish()
                let (works, pages) = try Self.manifestWorks(output)
                #expect(works >= most, "index.json went from \(most) to \(works) works")
                let counted = pages.map { pagesByNumber[$0]?.artworks.count ?? 0 }.reduce(0, +)
                #expect(
                    works >= counted, "index.json counts \(pages.count) pages of \(counted) works but shows \(works)")
                most = max(most, works)
            }
            return try Self.published(output) == expected
        }
        try await waitUntil("one copy published the whole index", timeout: .seconds(180)) {
            try await publishRound([first])
        }
        // A replay of every page while a second copy joins: the same rows again, nothing changes.
        try await cluster.producer.send(records)
        let second = try StagedCopy(brokers: cluster.brokers, output: output)
        try await waitUntil("two copies share the partitions and publish the same bytes", timeout: .seconds(180)) {
            let shared = !first.artists.progress.ready.isEmpty && !second.artists.progress.ready.isEmpty
            return try await publishRound([first, second]) && shared
        }
        try await first.stop()
        try await waitUntil("the second copy holds every shard and publishes the same bytes", timeout: .seconds(180)) {
            try await publishRound([second]) && second.artists.progress.ready.count == Self.partitions
        }
        #expect(most == 1_500)
        // A new page after the handover: its works reach the files, and only its shards change.
        let page = ArtistIndexTests.page(
            99,
            (0..<10).map {
                Artwork(
                    objectNumber: "NEW-\($0)", title: "New \($0)", artist: "Newcomer", imageURL: "https://x/new-\($0)",
                    width: nil, height: nil, position: $0)
            })
        inputs.add(page)
        staged.append(.page(page))
        try await cluster.producer.send([try MessageCodec.record(page, topic: ArtpipeTopic.pages)])
        let updated = try StagedIndexBuild.files(staged, partitions: Self.partitions)
        #expect(
            updated
                == IndexLayout.files(for: ArtistIndex.build(from: inputs), shards: IndexShards(count: Self.partitions)))
        var differing: [String] = []
        try await waitUntil("the new page is published; differing: \(differing.prefix(5))", timeout: .seconds(60)) {
            _ = try await publishRound([second])
            let files = try Self.published(output)
            differing = Set(files.keys).union(updated.keys).filter { files[$0] != updated[$0] }.sorted()
            return differing.isEmpty
        }
        #expect(most == 1_510)
        try await second.stop()
        await cluster.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Object numbers and makers as museums write them: dots, spaces, slashes, brackets,
    /// accents; they travel in the index topics' keys and name the published files' lines.
    static func namedAsMuseumsDo(_ inputs: IndexInputs) -> IndexInputs {
        var named = IndexInputs()
        for page in inputs.pages.values {
            named.add(
                ArtistIndexTests.page(
                    page.page,
                    page.artworks.enumerated().map { position, artwork in
                        var artwork = artwork
                        if position % 3 == 0 { artwork.objectNumber = "SK-A 4.\(artwork.objectNumber)/b [é]" }
                        if position % 4 == 1 { artwork.artist = "Maître de l'Annonciation d'Aix. \(page.page % 3)" }
                        return artwork
                    }))
        }
        return named
    }

    static func published(_ output: FolderOutputStore) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for path in try IndexLayout.publishedVersions(in: output).keys { files[path] = try output.read(path) }
        return files
    }

    /// The works `index.json` shows, and the pages it counts as indexed.
    static func manifestWorks(_ output: FolderOutputStore) throws -> (works: Int, pages: [Int]) {
        guard let bytes = try output.read(IndexLayout.manifestPath) else { return (0, []) }
        let manifest = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        let crawls = manifest?["crawls"] as? [[String: Any]] ?? []
        return (
            (manifest?["totals"] as? [String: Any])?["works"] as? Int ?? 0,
            crawls.flatMap { $0["pagesIndexed"] as? [Int] ?? [] }
        )
    }
}
