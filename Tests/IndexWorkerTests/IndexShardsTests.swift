import Foundation
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
    @Test(
        "the files that need every artist, assembled from shard and page summaries, are the whole index's bytes, its sitemap too"
    )
    func assembledSharedFiles() throws {
        let shards = IndexShards(count: 6)
        let site = try #require(SiteAddress("https://gallery.example.org/art"))
        var inputs = IndexLayoutTests.inputs(works: 3_000, artists: 40)
        for page in [31, 33, 40] {
            inputs.addFailure(
                PageRequest(crawlId: "c", source: "rijksmuseum", query: ["s": "artist"], page: page, pageSize: 100),
                reason: "HTTP 500 at \(page)")
        }
        let whole = ArtistIndex.build(from: inputs)
        let expected = IndexLayout.files(for: whole, shards: shards, site: site).filter {
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
                outlines: entries.filter { Int(IndexLayout.nameHash($0.pageId) % 3) == partition }.map(PageOutline.init)
            )
        }
        let assembled = IndexAssembly.sharedFiles(
            shards: shardSummaries, pages: pageSummaries, layout: shards, site: site)
        #expect(assembled[Sitemap.path] != nil)
        #expect(Set(assembled.keys) == Set(expected.keys))
        for (path, bytes) in expected {
            #expect(assembled[path] == bytes, "\(path) differs")
        }
        #expect(whole.crawls.first?.failedPages.count == 3 && whole.crawls.first?.gaps.isEmpty == false)
    }
}

extension IndexShardsTests {
    @Test(
        "each shard's works, applied in any order with rows changed and taken back on the way, render its buckets as the whole index does; in memory and in the copy's file",
        arguments: [false, true])
    func shardWorksInAnyOrder(onDisk: Bool) throws {
        let shards = IndexShards(count: 4)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A small cache: most reads go to the file.
        let file = try ShardLineFile(path: path, cacheBytes: 64 << 10)
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
        var states = try (0..<shards.count).map {
            onDisk ? ShardWorks(shard: $0, lines: try file.table(of: $0)) : ShardWorks(shard: $0)
        }
        for (key, row) in rows.shuffled(using: &random) {
            let shard = shards.shard(ofArtist: row.artist)
            if random.next(5) == 0 {
                // An older line first, or the work taken back and given again: the last row stands.
                var older = row
                older.work.title += " (older)"
                try states[shard].apply(key, older)
                if random.next(2) == 0 { try states[shard].apply(key, nil) }
            }
            let changed = try states[shard].apply(key, row)
            #expect(changed.isEmpty || changed == [row.artist])
        }
        for state in states {
            let own = try state.index
            #expect(own.artists.allSatisfy { shards.shard(ofArtist: $0.name) == state.shard })
            for (path, bytes) in IndexLayout.files(for: own, shards: shards)
            where path.hasPrefix("works/") || (path.hasPrefix("gallery/") && path.count == "gallery/000.html".count) {
                #expect(files[path] == bytes, "\(path) of shard \(state.shard) differs")
            }
        }
        #expect(states.map(\.workCount).reduce(0, +) == 1_200)
    }
}

extension IndexShardsTests {
    /// Renders a view as the publisher does: its buckets' files replace what `files` held of
    /// them; a bucket rendered that no slice is in any more loses its files.
    static func render(_ view: ShardView, shards: IndexShards, into files: inout [String: [UInt8]]) {
        let rendered = { (bucket: Int) in
            shards.shard(ofBucket: bucket) == view.shard && (view.buckets?.contains(bucket) ?? true)
        }
        for path in files.keys where IndexLayout.bucket(ofFile: path).map(rendered) == true { files[path] = nil }
        let content = view.content
        let plan = IndexLayout.Plan(content, shards: shards)
        for bucket in plan.buckets.keys where rendered(bucket) {
            for (path, bytes) in IndexLayout.bucketFiles(bucket, of: content, plan: plan, site: nil) {
                files[path] = bytes
            }
        }
    }

    @Test(
        "views of only what changed, rendered over the last files, give the files of the whole shard: titles changed, works moved, an artist grown into a second slice, one shrunk to one, one gone; names with accents, dots, spaces and other scripts; in memory and in the copy's file",
        arguments: [false, true])
    func changedBucketsOnly(onDisk: Bool) throws {
        let shards = IndexShards(count: 4)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try ShardLineFile(path: path, cacheBytes: 64 << 10)
        let whole = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 3_000, artists: 20))
        // Names as museums write them: accents, dots, spaces, other scripts, the unknown maker.
        let names = [
            "Maker 1": "Ëva Bes", "Maker 2": "J. Vermeer", "Maker 4": "Katsushika Hokusai 葛飾北斎",
            "Maker 6": "eva bes", "Maker 8": "",
        ]
        var rows: [WorkKey: ShardWorks.Row] = [:]
        for artist in whole.artists {
            for (number, work) in artist.works.enumerated() {
                var work = work
                if number % 7 == 0 { work.objectNumber = "SK-C-\(number).1 a/ë" + work.objectNumber }
                rows[WorkKey(source: "rijksmuseum", id: work.objectNumber, isRecord: false)] = .init(
                    artist: names[artist.name] ?? artist.name, work: work)
            }
        }
        var states = try (0..<shards.count).map {
            onDisk ? ShardWorks(shard: $0, lines: try file.table(of: $0)) : ShardWorks(shard: $0)
        }
        func apply(_ key: WorkKey, _ row: ShardWorks.Row?) throws {
            // A row leaving an artist of another shard is that shard's tombstone.
            if let before = rows[key], before.artist != row?.artist {
                try states[shards.shard(ofArtist: before.artist)].apply(key, nil)
            }
            if let row { try states[shards.shard(ofArtist: row.artist)].apply(key, row) }
            rows[key] = row
        }
        for (key, row) in rows { try apply(key, row) }
        var published: [String: [UInt8]] = [:]
        for shard in states.indices {
            Self.render(try states[shard].view(shards: shards, whole: true), shards: shards, into: &published)
        }

        // One title: only that artist's buckets.
        let (someKey, someRow) = rows.first { $0.value.artist == "Maker 7" }!
        var retitled = someRow
        retitled.work.title = "Retitled"
        try apply(someKey, retitled)
        let home = shards.shard(ofArtist: "Maker 7")
        let one = try states[home].view(shards: shards, whole: false)
        #expect(one.buckets == [shards.bucket(of: "Maker 7", slice: 0)])
        #expect(one.works.count < one.artists.count, "only the artists in the bucket rendered")
        Self.render(one, shards: shards, into: &published)

        var random = SplitMix(seed: 11)
        let keys = rows.keys.sorted { $0.id < $1.id }
        for key in keys {
            guard let row = rows[key] else { continue }
            switch random.next(10) {
            case 0: try apply(key, nil)
            case 1, 3, 4, 5, 7:
                var moved = row
                // Works move to a plain name and to an accented one, both past one slice.
                moved.artist = random.next(2) == 0 ? "Maker 3" : "Ëva Bes"
                try apply(key, moved)
            case 2:
                var changed = row
                changed.work.title += " (new)"
                try apply(key, changed)
            default: break
            }
            if row.artist == "Maker 5" { try apply(key, nil) }  // an artist gone
            if row.artist == "anonymous", key.id.hasSuffix("0") || key.id.hasSuffix("3") || key.id.hasSuffix("6") {
                try apply(key, nil)
            }
        }
        for shard in states.indices {
            Self.render(try states[shard].view(shards: shards, whole: false), shards: shards, into: &published)
        }

        var expected: [String: [UInt8]] = [:]
        for state in states {
            expected.merge(IndexLayout.bucketFiles(of: try state.index, shards: shards)) { a, _ in a }
        }
        #expect((rows.values.filter { $0.artist == "Maker 3" }.count) > IndexLayout.sliceSize)
        #expect((rows.values.filter { $0.artist == "Ëva Bes" }.count) > IndexLayout.sliceSize)
        #expect((rows.values.filter { $0.artist == "anonymous" }.count) < IndexLayout.sliceSize, "shrunk to one slice")
        #expect(Set(published.keys) == Set(expected.keys))
        for (path, bytes) in expected where published[path] != bytes {
            Issue.record("\(path) differs from the whole shard's")
        }
    }
}

extension IndexShardsTests {
    @Test(
        "a shard's artists stay in index order view after view while artists come, go and come back, a few or many at a time"
    )
    func artistOrderKept() throws {
        var state = ShardWorks(shard: 0)
        var random = SplitMix(seed: 5)
        var present: [WorkKey: ShardWorks.Row] = [:]
        // Names whose order folds case and accents, the unknown maker, another script.
        let names = (0..<300).map { ["Ëva \($0)", "eva \($0)", "J. \($0)", "", "葛飾 \($0)", "Zoë \($0)"][$0 % 6] }
        for round in 0..<40 {
            let changes = round == 0 ? 400 : 1 + random.next(round % 8 == 0 ? 300 : 6)
            for _ in 0..<changes {
                let key = WorkKey(source: "rijksmuseum", id: "W\(random.next(500))", isRecord: false)
                if present[key] != nil, random.next(3) == 0 {
                    try state.apply(key, nil)
                    present[key] = nil
                    continue
                }
                let work = ArtistIndex.Work(
                    objectNumber: key.id, title: "Work", pageId: "p", page: 1, imageURL: nil,
                    thumbnailStatus: "noImage",
                    thumbnailReason: nil, thumbnails: [:], recordId: nil, datestamp: nil)
                let row = ShardWorks.Row(artist: names[random.next(names.count)], work: work)
                try state.apply(key, row)
                present[key] = row
            }
            let expected = Set(present.values.map(\.artist)).sorted {
                ArtistIndex.artistOrder($0, ArtistIndex.collationKey($0), $1, ArtistIndex.collationKey($1))
            }
            let view = try state.view(shards: .one, whole: round % 2 == 0)
            #expect(view.artists.map(\.name) == expected, "round \(round)")
        }
    }

    @Test(
        "an artist's works come by object number's scalars, then record id (none first), then page id, whatever order they were applied in"
    )
    func workOrder() throws {
        // Prefixes, accents that fold under other orders, a record id absent, a tie broken by page id.
        let keys: [(number: String, record: String?, page: String)] = [
            ("A", nil, "p2"), ("A", "oai:1", "p1"), ("A", "oai:1", "p2"), ("A", "oai:10", "p1"), ("A", "oai:2", "p1"),
            ("A.1", nil, "p1"), ("AB", nil, "p1"), ("a", nil, "p1"), ("É", nil, "p1"), ("Éa", nil, "p1"),
        ]
        var random = SplitMix(seed: 11)
        for _ in 0..<20 {
            var state = ShardWorks(shard: 0)
            var shuffled = Array(keys.indices)
            for index in shuffled.indices.reversed() { shuffled.swapAt(index, random.next(index + 1)) }
            for index in shuffled {
                let (number, record, page) = keys[index]
                let work = ArtistIndex.Work(
                    objectNumber: number, title: "Work", pageId: page, page: 1, imageURL: nil,
                    thumbnailStatus: "noImage",
                    thumbnailReason: nil, thumbnails: [:], recordId: record, datestamp: nil)
                try state.apply(
                    WorkKey(source: "s", id: "\(index)", isRecord: record != nil), .init(artist: "Eva", work: work))
            }
            let works = try state.view(shards: .one, whole: true).works["Eva"] ?? []
            #expect(
                works.map { "\($0.objectNumber)|\($0.recordId ?? "-")|\($0.pageId)" }
                    == keys.map {
                        "\($0.number)|\($0.record ?? "-")|\($0.page)"
                    })
        }
    }

    @Test(
        "a shard taken whole in parts of a few buckets renders what one whole view renders; a part reads only its buckets' artists, and only the final part is last"
    )
    func wholeInParts() throws {
        let shards = IndexShards(count: 4)
        let whole = ArtistIndex.build(from: IndexLayoutTests.inputs(works: 3_000, artists: 300))
        // Names as museums write them, on every fourth artist: accents, dots, spaces, other scripts.
        let name = { (artist: ArtistIndex.Artist, number: Int) in
            number % 4 == 0 ? ["Ëva Bes ", "J. Vermeer ", "葛飾北斎 "][number % 3] + artist.name : artist.name
        }
        var state = ShardWorks(shard: 1)
        for (number, artist) in whole.artists.enumerated() where shards.shard(ofArtist: name(artist, number)) == 1 {
            for work in artist.works {
                try state.apply(
                    WorkKey(source: "rijksmuseum", id: "\(work.objectNumber).1 a/ë", isRecord: false),
                    .init(artist: name(artist, number), work: work))
            }
        }
        #expect(try state.index.artists.contains { $0.name.hasPrefix("Ëva Bes") })
        #expect(state.comesInParts(shards: shards, whole: true, summaryOnly: false, bucketsPerPart: 100))
        #expect(!state.comesInParts(shards: shards, whole: true, summaryOnly: false, bucketsPerPart: 1_024))
        #expect(!state.comesInParts(shards: shards, whole: false, summaryOnly: false, bucketsPerPart: 100))
        var one = state
        var expected: [String: [UInt8]] = [:]
        Self.render(try one.view(shards: shards, whole: true), shards: shards, into: &expected)

        let artistCount = try one.index.artists.count
        var parted: [String: [UInt8]] = [:]
        var lasts: [Bool] = []
        var artistsRead = 0
        try state.views(shards: shards, whole: true, bucketsPerPart: 100) { view, last in
            lasts.append(last)
            let buckets = view.buckets ?? []
            #expect((1...100).contains(buckets.count))
            #expect(view.artists.count == artistCount, "every part shows every artist")
            for artist in view.artists where view.works[artist.name] != nil {
                let slices = (artist.workCount + IndexLayout.sliceSize - 1) / IndexLayout.sliceSize
                #expect((0..<slices).contains { buckets.contains(shards.bucket(of: artist.name, slice: $0)) })
            }
            artistsRead += view.works.count
            Self.render(view, shards: shards, into: &parted)
        }
        // The shard's 1,024 buckets in parts of 100.
        #expect(lasts == Array(repeating: false, count: 10) + [true])
        // An artist is read once for each part that holds one of its slices.
        let own = (0..<IndexLayout.bucketCount).filter { shards.shard(ofBucket: $0) == 1 }
        let parts = try one.index.artists.map { artist in
            let slices = (artist.works.count + IndexLayout.sliceSize - 1) / IndexLayout.sliceSize
            return Set((0..<slices).map { own.firstIndex(of: shards.bucket(of: artist.name, slice: $0))! / 100 }).count
        }
        #expect(parts.contains { $0 > 1 }, "an artist whose slices fall in two parts")
        #expect(artistsRead == parts.reduce(0, +))
        #expect(!expected.isEmpty)
        #expect(parted == expected)
    }
}
