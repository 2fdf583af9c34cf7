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
        let cluster = try Self.cluster()
        var inputs = Self.namedAsMuseumsDo(IndexLayoutTests.inputs(works: 1_500, artists: 40))
        var staged = inputs.pages.values.map { StagedIndexBuild.Input.page($0) }
        var records = try inputs.pages.values.map { try MessageCodec.record($0, topic: ArtpipeTopic.pages) }
        // Thumbnails for every other page: those works show them, the rest are pending.
        for page in inputs.pages.values where page.page % 2 == 0 {
            let items = page.artworks.map { Self.thumbnail(of: $0, status: .ok) }
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
        let watch = ManifestWatch(output: output, pages: inputs)
        func publishRound(_ copies: [StagedCopy]) async throws -> Bool {
            try await watch.round(copies) == expected
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
        #expect(watch.most == 1_500)
        // A new page after the handover: its works reach the files, and only its shards change.
        let page = ArtistIndexTests.page(
            99,
            (0..<10).map {
                Artwork(
                    objectNumber: "NEW-\($0)", title: "New \($0)", artist: "Newcomer", imageURL: "https://x/new-\($0)",
                    width: nil, height: nil, position: $0)
            })
        inputs.add(page)
        watch.add(page)
        staged.append(.page(page))
        try await cluster.producer.send([try MessageCodec.record(page, topic: ArtpipeTopic.pages)])
        let updated = try StagedIndexBuild.files(staged, partitions: Self.partitions)
        #expect(
            updated
                == IndexLayout.files(for: ArtistIndex.build(from: inputs), shards: IndexShards(count: Self.partitions)))
        try await watch.waitUntilPublished(updated, by: [second], "the new page is published")
        #expect(watch.most == 1_510)
        try await second.stop()
        await cluster.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test(
        "a copy that loses shard 0 while another assembles, then takes it back, assembles again from the files as they are"
    )
    func shardZeroLostAndTakenBack() async throws {
        let cluster = try Self.cluster()
        var inputs = Self.namedAsMuseumsDo(IndexLayoutTests.inputs(works: 600, artists: 20))
        var staged = inputs.pages.values.map { StagedIndexBuild.Input.page($0) }
        try await cluster.producer.send(
            try inputs.pages.values.map { try MessageCodec.record($0, topic: ArtpipeTopic.pages) })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("stages"))
        let output = FolderOutputStore(directory: folder)
        let watch = ManifestWatch(output: output, pages: inputs)
        /// A new page of `count` works, some by a new artist and some by one already shown.
        func newPage(_ number: Int, count: Int) async throws -> [String: [UInt8]] {
            let page = ArtistIndexTests.page(
                number,
                (0..<count).map {
                    Artwork(
                        objectNumber: "P\(number)-\($0)", title: "Work \($0)",
                        artist: $0 % 2 == 0 ? "Newcomer \(number)" : "Maker 3",
                        imageURL: "https://x/\(number)-\($0)", width: nil, height: nil, position: $0)
                })
            inputs.add(page)
            watch.add(page)
            staged.append(.page(page))
            try await cluster.producer.send([try MessageCodec.record(page, topic: ArtpipeTopic.pages)])
            return try StagedIndexBuild.files(staged, partitions: Self.partitions)
        }

        let first = try StagedCopy(brokers: cluster.brokers, output: output)
        var expected = try StagedIndexBuild.files(staged, partitions: Self.partitions)
        try await waitUntil("the first copy published the whole index", timeout: .seconds(180)) {
            try await watch.round([first]) == expected
        }
        try await Self.expectAtRest(first)
        let second = try StagedCopy(brokers: cluster.brokers, output: output)
        try await waitUntil("two copies share the shards and publish the same bytes", timeout: .seconds(180)) {
            let shared = !first.artists.progress.ready.isEmpty && !second.artists.progress.ready.isEmpty
            return try await watch.round([first, second]) == expected && shared
        }
        // The first copy's artist stage leaves: the second holds every shard, shard 0 with it.
        try await first.stopArtists()
        try await waitUntil("the second copy holds every shard", timeout: .seconds(180)) {
            _ = try await watch.round([first, second])
            return first.artists.progress.held.isEmpty && second.artists.progress.ready.count == Self.partitions
        }
        // A page the second copy assembles: the shared files change behind the first's back.
        expected = try await newPage(98, count: 12)
        try await waitUntil("the second copy published the new page", timeout: .seconds(60)) {
            try await watch.round([first, second]) == expected
        }
        // The first copy takes its shards back (shard 0 with them once the second stops), with
        // the publisher that assembled before.
        try first.startArtists()
        try await second.stop()
        try await waitUntil(
            "the first copy holds every shard again and publishes the same bytes", timeout: .seconds(180)
        ) {
            try await watch.round([first]) == expected && first.artists.progress.ready.count == Self.partitions
        }
        try await Self.expectAtRest(first)
        expected = try await newPage(99, count: 12)
        try await watch.waitUntilPublished(expected, by: [first], "the first copy published a page after")
        // The next page, under the same assignments: the ends its rows need are what the copy's
        // producer had acknowledged, not the broker's (``WrittenEnds``).
        let asked = first.publisher.offsets.questionsAsked
        expected = try await newPage(100, count: 12)
        try await watch.waitUntilPublished(expected, by: [first], "the first copy published the next page")
        #expect(first.publisher.offsets.questionsAsked == asked, "a new page's ends were asked of the broker")
        #expect(watch.most == 636)
        try await first.stop()
        await cluster.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A thumbnail item for `artwork`'s image, with one 200-pixel file.
    static func thumbnail(of artwork: Artwork, status: PageThumbnails.Item.Status) -> PageThumbnails.Item {
        var item = PageThumbnails.Item(
            objectNumber: artwork.objectNumber, status: status,
            files: [
                .init(
                    size: 200, path: "thumbs/200/\(artwork.objectNumber).jpg", width: 200, height: 150, bytes: 9,
                    sha256: "s")
            ])
        item.imageURL = artwork.imageURL
        return item
    }

    /// A broker with the index's input and own topics, each of ``partitions`` partitions.
    static func cluster() throws -> TestCluster {
        let cluster = try TestCluster()
        for topic in [ArtpipeTopic.pages, ArtpipeTopic.thumbnails, ArtpipeTopic.deadLetters] + ArtpipeTopic.index {
            try cluster.broker.createTopic(topic, partitions: partitions)
        }
        return cluster
    }

    /// Once a round writes nothing, the next rounds write nothing and ask the broker nothing: a
    /// pipeline at rest once asked two questions every round.
    static func expectAtRest(_ copy: StagedCopy) async throws {
        try await waitUntil("a round writes nothing", timeout: .seconds(30)) {
            try await copy.publisher.publish() == 0
        }
        let asked = copy.publisher.offsets.questionsAsked
        for _ in 0..<5 {
            #expect(try await copy.publisher.publish() == 0)
        }
        #expect(copy.publisher.offsets.questionsAsked == asked, "rounds at rest asked the broker")
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
