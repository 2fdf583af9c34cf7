import Foundation
import ObjectStorage
import PipelineContract
import Testing

@testable import IndexWorker

/// The shared files as a copy assembles them, over a folder: no broker, no stages.
@Suite("The shared files a copy assembles")
struct SharedFilesTests {
    /// An index of `works` works split as the stages split it: a summary per shard and per page partition.
    static func summaries(works: Int, shards: IndexShards) -> ([ShardSummary], [PagesSummary]) {
        let inputs = IndexLayoutTests.inputs(works: works, artists: 12)
        let whole = ArtistIndex.build(from: inputs)
        let shardSummaries = (0..<shards.count).map { shard in
            var own = whole
            own.artists = whole.artists.filter { shards.shard(ofArtist: $0.name) == shard }
            return ShardSummary(shard: shard, index: own)
        }
        let entries = inputs.pages.values.map(PageEntry.init)
        let pageSummaries = (0..<2).map { partition in
            PagesSummary(
                partition: partition,
                outlines: entries.filter { Int(IndexLayout.nameHash($0.pageId) % 2) == partition }.map(PageOutline.init)
            )
        }
        return (shardSummaries, pageSummaries)
    }

    @Test(
        "with a site, the sitemap is written with the shared files and a part it no longer names removed; a copy without one leaves a sitemap alone"
    )
    func sitemap() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shared-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = FolderOutputStore(directory: folder)
        let layout = IndexShards(count: 3)
        let site = try #require(SiteAddress("https://gallery.example.org/"))
        let (shards, pages) = Self.summaries(works: 300, shards: layout)
        // A part of a larger sitemap, past a gap: found by the output's listing, not by its name.
        _ = try output.write(Array("old".utf8), to: Sitemap.partPath(7), durable: false)
        let withSite = SharedFiles(
            known: KnownOutput(output: output, shards: layout, relistEvery: .zero),
            summaries: IndexSummaries(output: output), layout: layout, site: site, logger: .init(label: "test"))
        _ = try withSite.assemble(shards: shards, pages: pages, from: SummaryVersions(sequences: ["shard-0": 1]))
        let expected = IndexAssembly.sharedFiles(shards: shards, pages: pages, layout: layout, site: site)
        #expect(try output.read(Sitemap.path) == expected[Sitemap.path] && expected[Sitemap.path] != nil)
        #expect(try output.read(Sitemap.partPath(7)) == nil)

        let withoutSite = SharedFiles(
            known: KnownOutput(output: output, shards: layout, relistEvery: .zero),
            summaries: IndexSummaries(output: output), layout: layout, logger: .init(label: "test"))
        _ = try withoutSite.assemble(shards: shards, pages: pages, from: SummaryVersions(sequences: ["shard-0": 2]))
        #expect(try output.read(Sitemap.path) == expected[Sitemap.path], "a sitemap is yours once no site is given")
        #expect(try output.read(IndexLayout.manifestPath) == expected[IndexLayout.manifestPath])
    }

    @Test(
        "written once from the summaries, the manifest among them; the same summaries again render nothing and move the record on; older ones never take it back; a stray letter page goes"
    )
    func assemble() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shared-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = FolderOutputStore(directory: folder)
        let layout = IndexShards(count: 3)
        let summaries = IndexSummaries(output: output)
        let known = KnownOutput(output: output, shards: layout, relistEvery: .zero)
        let shared = SharedFiles(known: known, summaries: summaries, layout: layout, logger: .init(label: "test"))
        let (shards, pages) = Self.summaries(works: 300, shards: layout)
        let expected = IndexAssembly.sharedFiles(shards: shards, pages: pages, layout: layout)

        let first = SummaryVersions(sequences: ["shard-0": 1, "pages-0": 1])
        let written = try shared.assemble(shards: shards, pages: pages, from: first)
        #expect(written == expected.count)
        for (path, bytes) in expected { #expect(try output.read(path) == bytes, "\(path)") }
        #expect(try summaries.assembled() == first)
        #expect(shared.shown(shards: shards, pages: pages) == Set(expected.keys))

        // A letter page no assembly names, left by an older layout.
        let stray = "\(IndexLayout.galleryFolder)/letter-zz.html"
        _ = try output.write(Array("old".utf8), to: stray, durable: false)
        let second = SummaryVersions(sequences: ["shard-0": 2, "pages-0": 1])
        #expect(try shared.assemble(shards: shards, pages: pages, from: second) == 1, "only the stray removed")
        #expect(try output.read(stray) == nil && summaries.assembled() == second)

        // Built from older summaries than recorded: nothing written, the record kept.
        let (fewer, _) = Self.summaries(works: 90, shards: layout)
        #expect(try shared.assemble(shards: fewer, pages: pages, from: first) == 0)
        #expect(try output.read(IndexLayout.manifestPath) == expected[IndexLayout.manifestPath])
        #expect(try summaries.assembled() == second)

        // Forgotten (another copy held shard 0 meanwhile): assembled again, only changed bytes written.
        shared.forget()
        #expect(shared.shown(shards: shards, pages: pages) == nil)
        let third = SummaryVersions(sequences: ["shard-0": 3, "pages-0": 1])
        #expect(try shared.assemble(shards: shards, pages: pages, from: third) == 0, "the same bytes")
        #expect(shared.shown(shards: shards, pages: pages) == Set(expected.keys))
    }
}
