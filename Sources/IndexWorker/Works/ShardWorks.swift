/// The artist stage's state for one shard: every work of the shard's artists, by work key, as
/// `artpipe.index-artists` holds them (its changelog: a row per work, a tombstone when a work
/// leaves the shard), kept grouped by artist, with what changed since the publisher last took
/// a view of it (``ShardView``).
package struct ShardWorks: Sendable {
    /// A work's row: the name it is grouped under and its line.
    package struct Row: Codable, Sendable, Hashable {
        package var artist: String
        package var work: ArtistIndex.Work

        package init(artist: String, work: ArtistIndex.Work) {
            (self.artist, self.work) = (artist, work)
        }
    }

    package let shard: Int
    package private(set) var rows: [WorkKey: Row] = [:]
    /// Each artist's works, by the name it is grouped under (rows' artists are group names).
    private var members: [String: Set<WorkKey>] = [:]
    /// Each artist's collation key, computed once.
    private var keys: [String: String] = [:]
    /// The artists in index order; nil once an artist came or went (counts do not move it).
    private var order: [String]? = []
    /// Works by thumbnail status.
    private var thumbnails: [String: Int] = [:]
    /// The artists whose works changed since the last view, each with its count then.
    private var changed: [String: Int] = [:]

    package init(shard: Int) {
        self.shard = shard
    }

    /// Applies a row read from the topic; nil is a tombstone. Returns the artists whose works
    /// changed, whose buckets are to be rendered again.
    @discardableResult
    package mutating func apply(_ work: WorkKey, _ row: Row?) -> Set<String> {
        let before = rows[work]
        guard before != row else { return [] }
        if let before { remove(work, before) }
        if let row { add(work, row) }
        rows[work] = row
        return Set([before?.artist, row?.artist].compactMap { $0 })
    }

    private mutating func remove(_ work: WorkKey, _ row: Row) {
        note(row.artist)
        members[row.artist]?.remove(work)
        if members[row.artist]?.isEmpty == true {
            (members[row.artist], keys[row.artist], order) = (nil, nil, nil)
        }
        thumbnails[row.work.thumbnailStatus, default: 0] -= 1
        if thumbnails[row.work.thumbnailStatus] == 0 { thumbnails[row.work.thumbnailStatus] = nil }
    }

    private mutating func add(_ work: WorkKey, _ row: Row) {
        note(row.artist)
        if members[row.artist] == nil {
            (keys[row.artist], order) = (ArtistIndex.collationKey(row.artist), nil)
        }
        members[row.artist, default: []].insert(work)
        thumbnails[row.work.thumbnailStatus, default: 0] += 1
    }

    private mutating func note(_ artist: String) {
        if changed[artist] == nil { changed[artist] = members[artist]?.count ?? 0 }
    }

    /// By object number; two works with one (records of two sources) by record id, then page id.
    static func workOrder(_ a: ArtistIndex.Work, _ b: ArtistIndex.Work) -> Bool {
        let (keyA, keyB) = (
            [a.objectNumber, a.recordId ?? "", a.pageId], [b.objectNumber, b.recordId ?? "", b.pageId]
        )
        return keyA.lexicographicallyPrecedes(keyB) { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// The artists in index order.
    private mutating func artistsInOrder() -> [String] {
        if let order { return order }
        let sorted = keys.sorted { ArtistIndex.artistOrder($0.key, $0.value, $1.key, $1.value) }.map(\.key)
        order = sorted
        return sorted
    }

    private func works(of artist: String) -> [ArtistIndex.Work] {
        (members[artist] ?? []).compactMap { rows[$0]?.work }.sorted(by: Self.workOrder)
    }

    /// What the publisher renders, and forgets what changed: every artist with its count, and
    /// the works of the artists in the buckets the changes touched (or of all, `whole`; of none,
    /// `summaryOnly`: nothing is rendered yet, so the next view must be whole).
    package mutating func view(shards: IndexShards, whole: Bool, summaryOnly: Bool = false) -> ShardView {
        let names = artistsInOrder()
        let artists = names.map { IndexContent.Artist(name: $0, workCount: members[$0]?.count ?? 0) }
        if summaryOnly {
            changed = [:]
            return ShardView(shard: shard, artists: artists, works: [:], buckets: [], thumbnails: thumbnails)
        }
        var buckets: Set<Int>?
        if !whole {
            var touched = Set<Int>()
            for (artist, before) in changed {
                let slices = max(Self.sliceCount(before), Self.sliceCount(members[artist]?.count ?? 0))
                for slice in 0..<slices { touched.insert(shards.bucket(of: artist, slice: slice)) }
            }
            buckets = touched
        }
        changed = [:]
        var works: [String: [ArtistIndex.Work]] = [:]
        for artist in artists {
            if let buckets {
                let slices = Self.sliceCount(artist.workCount)
                guard (0..<slices).contains(where: { buckets.contains(shards.bucket(of: artist.name, slice: $0)) })
                else { continue }
            }
            works[artist.name] = self.works(of: artist.name)
        }
        return ShardView(shard: shard, artists: artists, works: works, buckets: buckets, thumbnails: thumbnails)
    }

    private static func sliceCount(_ works: Int) -> Int {
        max((works + IndexLayout.sliceSize - 1) / IndexLayout.sliceSize, 1)
    }

    /// The shard's artists and their works, in index order: what its buckets and summary are made from.
    package var index: ArtistIndex {
        var copy = self
        return copy.view(shards: .one, whole: true).content.index
    }
}

extension ShardWorks: Equatable {
    /// The same works: what changed since a view is not part of what a shard holds.
    package static func == (a: ShardWorks, b: ShardWorks) -> Bool {
        a.shard == b.shard && a.rows == b.rows
    }
}
