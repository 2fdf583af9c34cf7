import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import ObjectStorage
import PipelineContract
import Synchronization
import Testing

@testable import IndexWorker

@Suite("The summaries the shared files are assembled from")
struct IndexSummariesTests {
    static func shard(_ number: Int, works: Int) -> ShardSummary {
        var index = ArtistIndex.build(from: IndexLayoutTests.inputs(works: works, artists: 3))
        index.artists = index.artists.filter { IndexShards(count: 2).shard(ofArtist: $0.name) == number }
        return ShardSummary(shard: number, index: index)
    }

    /// A folder whose read of `trigger` lets another copy write first: a copy that stalled
    /// between reading a summary and writing over it.
    final class WrittenAfterRead: OutputStore {
        let folder: FolderOutputStore
        let trigger: String
        let other: Mutex<(@Sendable () throws -> Void)?>

        init(_ folder: FolderOutputStore, trigger: String, other: @escaping @Sendable () throws -> Void) {
            (self.folder, self.trigger) = (folder, trigger)
            self.other = Mutex(other)
        }

        var description: String { folder.description }
        var writeConcurrency: Int { 1 }
        func address(of path: String) -> String { folder.address(of: path) }
        func read(_ path: String) throws -> [UInt8]? { try folder.read(path) }
        func readVersioned(_ path: String) throws -> (bytes: [UInt8], version: OutputVersion)? {
            let read = try folder.readVersioned(path)
            if path == trigger, let other = other.withLock({ $0.take() }) { try other() }
            return read
        }
        func version(of path: String) throws -> OutputVersion? { try folder.version(of: path) }
        func versions(in folder: String) throws -> [String: OutputVersion] { try self.folder.versions(in: folder) }
        func write(_ bytes: [UInt8], to path: String, durable: Bool) throws -> OutputVersion {
            try folder.write(bytes, to: path, durable: durable)
        }
        func write(
            _ files: [(path: String, bytes: [UInt8])], durable: Bool, conditions: [String: OutputCondition]
        ) throws -> [OutputVersion] {
            try folder.write(files, durable: durable, conditions: conditions)
        }
        func remove(_ path: String) throws { try folder.remove(path) }
        func markUsed(_ path: String) throws -> Bool { try folder.markUsed(path) }
    }

    @Test(
        "a summary another copy wrote between this one's read and its write is not replaced: the write is refused for the moment"
    )
    func writtenAfterRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("summaries"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = FolderOutputStore(directory: directory)
        try IndexSummaries(output: folder).write(Self.shard(0, works: 30))
        try IndexSummaries(output: folder).write(PagesSummary(partition: 0, outlines: []))
        let successor = IndexSummaries(output: folder)
        let stalled = IndexSummaries(
            output: WrittenAfterRead(folder, trigger: IndexSummaries.shardPath(0)) {
                try successor.write(Self.shard(0, works: 90))
            })
        let refused = #expect(throws: OutputConflict.self) { try stalled.write(Self.shard(0, works: 60)) }
        #expect(refused.map { FailureClass.of($0) } == .forNow)
        let read = try #require(try successor.read(count: 1))
        #expect(read.shards == [Self.shard(0, works: 90)] && read.versions.sequences[IndexSummaries.shardPath(0)] == 2)
        // Asked again, it reads the successor's summary and goes on from it.
        #expect(try stalled.write(Self.shard(0, works: 60)) == 3)
    }

    @Test("complete only with every shard and page partition; a sequence number rises only when a summary changes")
    func sequences() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("summaries"))
        let summaries = IndexSummaries(output: FolderOutputStore(directory: directory))
        #expect(try summaries.read(count: 2) == nil)
        #expect(try summaries.write(Self.shard(0, works: 30)) == 1)
        #expect(try summaries.write(Self.shard(0, works: 30)) == 1, "the same summary again is not a change")
        #expect(try summaries.write(Self.shard(0, works: 60)) == 2)
        try summaries.write(Self.shard(1, works: 30))
        try summaries.write(PagesSummary(partition: 0, outlines: []))
        #expect(try summaries.read(count: 2) == nil, "page partition 1 has no summary yet")
        try summaries.write(PagesSummary(partition: 1, outlines: []))
        let read = try #require(try summaries.read(count: 2))
        #expect(read.shards.map(\.shard) == [0, 1] && read.pages.map(\.partition) == [0, 1])
        #expect(read.versions.sequences[IndexSummaries.shardPath(0)] == 2)
        // Another copy takes shard 0 over and writes it: this one, which keeps what it decoded
        // and wrote, reads the other's summary and goes on from its sequence number.
        let other = IndexSummaries(output: FolderOutputStore(directory: directory))
        #expect(try other.write(Self.shard(0, works: 90)) == 3)
        let after = try #require(try summaries.read(count: 2))
        #expect(
            after.shards[0] == Self.shard(0, works: 90) && after.versions.sequences[IndexSummaries.shardPath(0)] == 3)
        #expect(try summaries.write(Self.shard(0, works: 60)) == 4, "the other copy's sequence, not its own last")
        // The manifest's folder lists none of them: the publisher and prune never touch them.
        #expect(try IndexLayout.publishedVersions(in: FolderOutputStore(directory: directory)).isEmpty)
    }

    @Test(
        "a shard's summary written by hand reads back as it was: the encoder's bytes where it escapes alike; names with quotes, backslashes, controls, slashes and other scripts"
    )
    func shardSummaryJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let names = ["Rembrandt van Rijn", "", "Ëva \"Bes\"", "back\\slash", "tab\tline\nbell\u{7}", "葛飾北斎 🎨"]
        var summary = ShardSummary(
            shard: 3, artists: names.enumerated().map { .init(name: $1, works: $0 * 1_000 + 1) },
            thumbnails: ["pending": 2, "ok": 5_000, "failed": 1, "noImage": 0])
        for (position, published) in [(nil, nil), (Int64(1) << 40, false), (0, true)] as [(Int64?, Bool?)] {
            (summary.position, summary.published) = (position, published)
            let stored = IndexSummaries.Stored(sequence: 12, summary: summary)
            #expect(stored.json == Array(try encoder.encode(stored)), "position \(String(describing: position))")
            #expect(
                try JSONDecoder().decode(IndexSummaries.Stored<ShardSummary>.self, from: Data(stored.json)) == stored)
            #expect(IndexSummaries.Stored(json: stored.json) == stored, "read by hand")
        }
        // The encoder writes a slash as `\/`: the bytes differ, what they say does not.
        let slashed = IndexSummaries.Stored(
            sequence: 1, summary: ShardSummary(shard: 0, artists: [.init(name: "A/B", works: 1)], thumbnails: [:]))
        #expect(try JSONDecoder().decode(IndexSummaries.Stored<ShardSummary>.self, from: Data(slashed.json)) == slashed)
        #expect(IndexSummaries.Stored(json: Array(try encoder.encode(slashed))) == slashed)
        let empty = IndexSummaries.Stored(sequence: 1, summary: ShardSummary(shard: 0, artists: [], thumbnails: [:]))
        #expect(empty.json == Array(try encoder.encode(empty)))
        #expect(IndexSummaries.Stored(json: empty.json) == empty)
    }

    @Test(
        "a shard's summary read by hand: escapes and surrogate pairs as the decoder reads them; anything else is left to the decoder"
    )
    func shardSummaryReadByHand() throws {
        let escaped =
            Array(
                #"{"sequence":2,"summary":{"artists":[{"name":"\u00c9va \ud83c\udfa8 \/ \b\f\"","works":3}],"#.utf8)
            + Array(#""position":-1,"shard":1,"thumbnails":{"ok":3}}}"#.utf8)
        let decoded = try JSONDecoder().decode(IndexSummaries.Stored<ShardSummary>.self, from: Data(escaped))
        #expect(decoded.summary.artists.first?.name == "Éva 🎨 / \u{8}\u{c}\"")
        #expect(IndexSummaries.Stored(json: escaped) == decoded)
        let stored = IndexSummaries.Stored(
            sequence: 5,
            summary: ShardSummary(
                shard: 2, artists: [.init(name: "A", works: 1), .init(name: "B", works: 2)], thumbnails: ["ok": 3]))
        let text = String(decoding: stored.json, as: UTF8.self)
        // Other JSON, or none: never read by hand as something else.
        let others = [
            text.replacingOccurrences(of: #","works""#, with: #", "works""#),
            text.replacingOccurrences(of: #"{"sequence":5,"summary":"#, with: #"{"summary":"#),
            String(text.dropLast()),
            text + " ",
            text.replacingOccurrences(of: #""name":"A""#, with: #""name":"\ud800""#),
            text.replacingOccurrences(of: #""works":2"#, with: #""works":99999999999999999999"#),
        ]
        for other in others {
            #expect(other != text)
            #expect(IndexSummaries.Stored(json: Array(other.utf8)) == nil, "\(other)")
        }
    }

    @Test("shared files built from older summaries never replace ones built from newer")
    func neverBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("assembled"))
        let summaries = IndexSummaries(output: FolderOutputStore(directory: directory))
        let older = SummaryVersions(sequences: ["a": 1, "b": 1])
        let newer = SummaryVersions(sequences: ["a": 1, "b": 2])
        #expect(older.supersedes(SummaryVersions()))
        try summaries.recordAssembled(newer)
        let published = try summaries.assembled()
        #expect(published == newer)
        // A copy that read the summaries before b changed, and assembles after: it writes nothing.
        #expect(!older.supersedes(published))
        #expect(!newer.supersedes(published), "the same summaries again: nothing to write")
        #expect(newer.covers(published), "the same summaries again: what a copy's first assembly may show")
        #expect(!older.covers(published))
        #expect(SummaryVersions(sequences: ["a": 2, "b": 2]).supersedes(published))
        #expect(!SummaryVersions(sequences: ["a": 3, "b": 1]).supersedes(published), "newer in one, older in another")
    }
}

extension IndexSummariesTests {
    static func pages(_ partition: Int, pages: Int, worksEnd: [Int64]?) -> PagesSummary {
        let outlines = (1...max(pages, 1)).prefix(pages).map { number in
            PageOutline(
                PageEntry(
                    Page(
                        request: PageRequest(crawlId: "c", source: "s", query: [:], page: number, pageSize: 1),
                        total: 9, artworks: [])))
        }
        var summary = PagesSummary(partition: partition, outlines: outlines)
        summary.worksEnd = worksEnd
        return summary
    }

    @Test("a page summary whose pages did not change is not written again for a newer works end, nor its end asked")
    func worksEndAloneIsNoChange() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("watermark"))
        let summaries = IndexSummaries(output: FolderOutputStore(directory: directory))
        #expect(try summaries.changes(Self.pages(0, pages: 2, worksEnd: nil)), "none stored")
        #expect(try summaries.write(Self.pages(0, pages: 2, worksEnd: nil)) == 1)
        #expect(try summaries.changes(Self.pages(0, pages: 2, worksEnd: nil)), "the stored one names no end")
        #expect(try summaries.write(Self.pages(0, pages: 2, worksEnd: [4, 1])) == 2, "the first to name its end")
        #expect(try !summaries.changes(Self.pages(0, pages: 2, worksEnd: nil)))
        #expect(try summaries.write(Self.pages(0, pages: 2, worksEnd: [9, 9])) == 2)
        #expect(try summaries.changes(Self.pages(0, pages: 3, worksEnd: nil)))
        #expect(try summaries.changes(Self.pages(1, pages: 3, worksEnd: nil)), "another partition: none stored")
        #expect(try summaries.write(Self.pages(0, pages: 3, worksEnd: [9, 9])) == 3)
        #expect(try !summaries.changes(Self.pages(0, pages: 3, worksEnd: nil)))
    }

    @Test("the shared files wait for the works stage, then for every shard, at the target first taken")
    func assemblyTarget() {
        let read = SummaryVersions(sequences: [
            IndexSummaries.pagesPath(0): 3, IndexSummaries.pagesPath(1): 5, IndexSummaries.shardPath(0): 7,
        ])
        var target = AssemblyTarget(
            pages: [Self.pages(0, pages: 1, worksEnd: [3, 5]), Self.pages(1, pages: 1, worksEnd: [4, 1])],
            versions: read)
        #expect(target.worksEnd == [4, 5], "the highest end each page summary names")
        #expect(
            AssemblyTarget(
                pages: [Self.pages(0, pages: 1, worksEnd: [3, 5]), Self.pages(1, pages: 1, worksEnd: nil)],
                versions: read
            ).worksEnd == nil)
        var shards = [Self.shard(0, works: 30), Self.shard(1, works: 30)]
        (shards[0].position, shards[1].position) = (2, 6)
        #expect(!target.isReached(by: shards), "not before the works stage passed the end")
        target.artistsEnd = [2, 7]
        #expect(!target.isReached(by: shards))
        shards[1].position = 7
        #expect(target.isReached(by: shards))
        // Newer page summaries read since: the files name the ones the target holds.
        var newer = read
        newer.sequences[IndexSummaries.pagesPath(1)] = 6
        newer.sequences[IndexSummaries.shardPath(0)] = 8
        #expect(
            target.versions(with: newer).sequences == [
                IndexSummaries.pagesPath(0): 3, IndexSummaries.pagesPath(1): 5, IndexSummaries.shardPath(0): 8,
            ])
    }
}
