import ArtpipeTestKit
import Foundation
import ObjectStorage
import PipelineContract
import Synchronization
import Testing

@testable import IndexWorker

@Suite("Reading the published index while it is published")
struct IndexSnapshotTests {
    /// A folder whose first read of `works/<bucket>` lets a publish happen first, as an index
    /// worker does between a prune's reads.
    final class PublishingMidRead: OutputStore {
        let folder: FolderOutputStore
        let trigger: String
        let publish: Mutex<(@Sendable () throws -> Void)?>

        init(_ folder: FolderOutputStore, trigger: String, publish: @escaping @Sendable () throws -> Void) {
            self.folder = folder
            self.trigger = trigger
            self.publish = Mutex(publish)
        }

        var description: String { folder.description }
        var writeConcurrency: Int { folder.writeConcurrency }
        func address(of path: String) -> String { folder.address(of: path) }
        func read(_ path: String) throws -> [UInt8]? {
            if path == trigger, let publish = publish.withLock({ $0.take() }) { try publish() }
            return try folder.read(path)
        }
        func readVersioned(_ path: String) throws -> (bytes: [UInt8], version: OutputVersion)? {
            try folder.readVersioned(path)
        }
        func version(of path: String) throws -> OutputVersion? { try folder.version(of: path) }
        func write(
            _ files: [(path: String, bytes: [UInt8])], durable: Bool, conditions: [String: OutputCondition]
        ) throws -> [OutputVersion] {
            try folder.write(files, durable: durable, conditions: conditions)
        }
        func versions(in folder: String) throws -> [String: OutputVersion] { try self.folder.versions(in: folder) }
        func write(_ bytes: [UInt8], to path: String, durable: Bool) throws -> OutputVersion {
            try folder.write(bytes, to: path, durable: durable)
        }
        func remove(_ path: String) throws { try folder.remove(path) }
        func markUsed(_ path: String) throws -> Bool { try folder.markUsed(path) }
    }

    /// `SK-A-1` by `artist` and `SK-A-2` by `neighbour`, each with its thumbnail.
    static func index(artist: String, neighbour: String) -> ArtistIndex {
        let request = PageRequest(crawlId: "c", source: "rijksmuseum", query: [:], page: 1, pageSize: 10)
        let works = [("SK-A-1", artist), ("SK-A-2", neighbour)]
        let page = Page(
            request: request, total: works.count,
            artworks: works.enumerated().map { position, work in
                Artwork(
                    objectNumber: work.0, title: "t", artist: work.1, imageURL: "https://x/\(work.0).jpg", width: nil,
                    height: nil, position: position)
            })
        var inputs = IndexInputs()
        inputs.add(page)
        inputs.add(
            PageThumbnails(
                pageId: page.pageId,
                items: works.map { work in
                    .init(
                        objectNumber: work.0, status: .ok,
                        files: [
                            .init(
                                size: 200, path: "thumbs/200/aa/\(work.0).v.jpg", width: 200, height: 150, bytes: 9,
                                sha256: String(repeating: "0", count: 64))
                        ])
                }))
        return ArtistIndex.build(from: inputs)
    }

    /// Publishes as the index worker does: the work files, then the manifest, then the files
    /// no longer part of the index go.
    static func publish(_ index: ArtistIndex, to store: any OutputStore) throws {
        let files = IndexLayout.files(for: index)
        for (path, bytes) in files where path != IndexLayout.manifestPath {
            try store.write(bytes, to: path, durable: false)
        }
        try store.write(files[IndexLayout.manifestPath]!, to: IndexLayout.manifestPath, durable: false)
        for path in try IndexLayout.publishedVersions(in: store).keys where files[path] == nil {
            try store.remove(path)
        }
    }

    /// The published index in a new folder, read by `read` while the work moves from de Hooch
    /// to Leyster, whose buckets differ: the reader has the manifest naming de Hooch's bucket
    /// when the publish happens.
    static func readDuringMove(_ read: (any OutputStore) throws -> ArtistIndex) throws -> [ArtistIndex.Work] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("snapshot"))
        let folder = FolderOutputStore(directory: directory)
        // A neighbour in de Hooch's bucket keeps its file there after the move, as most buckets are shared.
        let neighbour = try #require(
            (0..<100_000).lazy.map { "Maker \($0)" }.first { bucket($0) == bucket("Pieter de Hooch") })
        try publish(index(artist: "Pieter de Hooch", neighbour: neighbour), to: folder)
        let store = PublishingMidRead(folder, trigger: bucket("Pieter de Hooch")) {
            try publish(index(artist: "Judith Leyster", neighbour: neighbour), to: folder)
        }
        return try read(store).artists.flatMap(\.works)
    }

    static func bucket(_ artist: String) -> String { IndexLayout.worksPath(IndexLayout.bucket(of: artist, slice: 0)) }

    @Test("a work that moves to another bucket while the index is read is in the snapshot, never in neither bucket")
    func workMovesBetweenBuckets() throws {
        try #require(Self.bucket("Pieter de Hooch") != Self.bucket("Judith Leyster"), "the two artists share a bucket")
        // A plain read of the manifest, then each bucket, sees the work in neither (what prune did).
        let plain = try Self.readDuringMove { try PublishedIndex.read(from: $0).index }
        #expect(plain.map(\.objectNumber) == ["SK-A-2"], "the race this guards against did not happen")
        let snapshot = try Self.readDuringMove { try PublishedIndex.snapshot(from: $0).index }
        #expect(snapshot.map(\.objectNumber).sorted() == ["SK-A-1", "SK-A-2"])
        #expect(
            snapshot.flatMap(\.thumbnails.values).sorted() == [
                "thumbs/200/aa/SK-A-1.v.jpg", "thumbs/200/aa/SK-A-2.v.jpg",
            ])
    }
}
