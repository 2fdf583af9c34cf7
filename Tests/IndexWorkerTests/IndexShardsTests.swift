import PipelineContract
import Testing

@testable import IndexWorker

@Suite("Shards of the published index")
struct IndexShardsTests {
    static let artists = (0..<3_000).map { "Maker \($0)" } + ["", "anonymous", "Katsushika Hokusai 葛飾北斎"]

    @Test("one shard is the layout of one copy: every slice in the bucket its name hashes to")
    func oneShard() {
        for artist in Self.artists {
            for slice in 0..<4 {
                #expect(
                    IndexShards.one.bucket(of: artist, slice: slice) == IndexLayout.bucket(of: artist, slice: slice))
            }
        }
    }

    @Test(
        "every slice of an artist is in a bucket its shard owns, and buckets spread over the shards",
        arguments: [2, 3, 6, 7, 64])
    func slicesStayInTheirShard(count: Int) {
        let shards = IndexShards(count: count)
        var perShard = [Int](repeating: 0, count: count)
        for artist in Self.artists {
            let shard = shards.shard(ofArtist: artist)
            perShard[shard] += 1
            #expect(shards.bucket(of: artist, slice: 0) == IndexLayout.bucket(of: artist, slice: 0))
            for slice in 0..<6 {
                let bucket = shards.bucket(of: artist, slice: slice)
                #expect((0..<IndexLayout.bucketCount).contains(bucket))
                #expect(shards.shard(ofBucket: bucket) == shard, "\(artist) slice \(slice) in bucket \(bucket)")
            }
        }
        // 3,003 artists: each shard within half of its fair share.
        let fair = Double(Self.artists.count) / Double(count)
        #expect(perShard.allSatisfy { Double($0) > fair / 2 && Double($0) < fair * 1.5 }, "\(perShard)")
    }
}

extension IndexShardsTests {
    /// What the artist stage needs: a shard's bucket files are a function of its own artists.
    @Test("a shard's bucket files, rendered from its artists alone, are the bytes of the whole index's")
    func shardRendersAlone() {
        let shards = IndexShards(count: 6)
        // 3,000 works; a third by one artist, so it has slices in several buckets.
        let whole = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 3_000, artists: 40))
        let files = IndexLayout.files(for: whole, shards: shards)
        let isBucketFile = { (path: String) in
            path.hasPrefix("works/") || (path.hasPrefix("gallery/") && path.count == "gallery/000.html".count)
        }
        var checked = 0
        for shard in 0..<shards.count {
            var own = whole
            own.artists = whole.artists.filter { shards.shard(ofArtist: $0.name) == shard }
            for (path, bytes) in IndexLayout.files(for: own, shards: shards) where isBucketFile(path) {
                let bucket = Int(path.split(separator: "/")[1].prefix(3), radix: 16)!
                #expect(shards.shard(ofBucket: bucket) == shard, "\(path) in shard \(shard)")
                #expect(files[path] == bytes, "\(path) differs when its shard renders it alone")
                checked += 1
            }
        }
        #expect(checked == files.keys.filter(isBucketFile).count, "every bucket file is some shard's")
    }
}

extension IndexShardsTests {
    @Test("the files that need every artist, assembled from shard and page summaries, are the whole index's bytes")
    func assembledSharedFiles() {
        let shards = IndexShards(count: 6)
        var inputs = IndexLayoutTests.inputs(works: 3_000, artists: 40)
        for page in [31, 33, 40] {
            inputs.addFailure(
                PageRequest(crawlId: "c", source: "rijksmuseum", query: ["s": "artist"], page: page, pageSize: 100),
                reason: "HTTP 500 at \(page)")
        }
        let whole = ArtistIndex.build(from: inputs)
        let expected = IndexLayout.files(for: whole, shards: shards).filter {
            !$0.key.hasPrefix("works/") && !($0.key.hasPrefix("gallery/") && $0.key.count == "gallery/000.html".count)
        }
        let shardSummaries = (0..<shards.count).map { shard in
            var own = whole
            own.artists = whole.artists.filter { shards.shard(ofArtist: $0.name) == shard }
            return ShardSummary(shard: shard, index: own)
        }
        // Three page partitions, by the page id's hash.
        let entries =
            inputs.pages.values.map(PageEntry.init)
            + inputs.failedPages.values.filter { inputs.pages[$0.request.pageId] == nil }.map {
                PageEntry(failed: $0.request, reason: $0.reason)
            }
        let pageSummaries = (0..<3).map { partition in
            PagesSummary(
                partition: partition,
                entries: entries.filter { Int(IndexLayout.nameHash($0.pageId) % 3) == partition })
        }
        let assembled = IndexAssembly.sharedFiles(shards: shardSummaries, pages: pageSummaries, layout: shards)
        #expect(Set(assembled.keys) == Set(expected.keys))
        for (path, bytes) in expected {
            #expect(assembled[path] == bytes, "\(path) differs")
        }
        #expect(whole.crawls.first?.failedPages.count == 3 && whole.crawls.first?.gaps.isEmpty == false)
    }
}

extension IndexShardsTests {
    @Test(
        "each shard's works, applied in any order with rows changed and taken back on the way, render its buckets as the whole index does"
    )
    func shardWorksInAnyOrder() {
        let shards = IndexShards(count: 4)
        let whole = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 1_200, artists: 30))
        let files = IndexLayout.files(for: whole, shards: shards)
        var rows: [(WorkKey, ShardWorks.Row)] = []
        for artist in whole.artists {
            for work in artist.works {
                rows.append(
                    (
                        WorkKey(source: "rijksmuseum", id: work.objectNumber, isRecord: false),
                        .init(artist: artist.name, work: work)
                    ))
            }
        }
        var random = SplitMix(seed: 7)
        var states = (0..<shards.count).map { ShardWorks(shard: $0) }
        for (key, row) in rows.shuffled(using: &random) {
            let shard = shards.shard(ofArtist: row.artist)
            if random.next(5) == 0 {
                // An older line first, or the work taken back and given again: the last row stands.
                var older = row
                older.work.title += " (older)"
                states[shard].apply(key, older)
                if random.next(2) == 0 { states[shard].apply(key, nil) }
            }
            let changed = states[shard].apply(key, row)
            #expect(changed.isEmpty || changed == [row.artist])
        }
        for state in states {
            let own = state.index
            #expect(own.artists.allSatisfy { shards.shard(ofArtist: $0.name) == state.shard })
            for (path, bytes) in IndexLayout.files(for: own, shards: shards)
            where path.hasPrefix("works/") || (path.hasPrefix("gallery/") && path.count == "gallery/000.html".count) {
                #expect(files[path] == bytes, "\(path) of shard \(state.shard) differs")
            }
        }
        #expect(states.map(\.rows.count).reduce(0, +) == 1_200)
    }
}
