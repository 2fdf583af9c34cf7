import ArtpipeSupport

/// The artist stage's state for one shard: every work of the shard's artists, by work key, as
/// `artpipe.index-artists` holds them (its changelog: a row per work, a tombstone when a work
/// leaves the shard), kept grouped by artist, with what changed since the publisher last took
/// a view of it (``ShardView``). The lines themselves are in its ``ShardLineTable`` (on disk in
/// a running copy); what it holds itself is per artist: the count, the collation key, the order.
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
    private let lines: any ShardLineTable
    /// Each artist's count of works, by the name it is grouped under (rows' artists are group names).
    private var counts: [String: Int] = [:]
    /// Each artist's collation key, computed once.
    private var keys: [String: String] = [:]
    /// The artists in index order as the last view placed them, and those that came or went
    /// since (counts do not move an artist): a view places the few that came, where sorting
    /// every artist of the shard again cost each round after a new page 10-20 ms a shard at 4
    /// million works.
    private var order: [String] = []
    private var came: Set<String> = []
    private var went: Set<String> = []
    /// Works by thumbnail status.
    private var thumbnails: [String: Int] = [:]
    /// The artists whose works changed since the last view, each with its count then.
    private var changed: [String: Int] = [:]

    /// How artists are placed in shards, where a row may carry a spelling another shard's
    /// group name has (``apply(_:_:)``); nil: every row's group name is this shard's.
    let layout: IndexShards?

    package init(shard: Int, lines: any ShardLineTable = ShardLinesInMemory(), layout: IndexShards? = nil) {
        (self.shard, self.lines, self.layout) = (shard, lines, layout)
    }

    /// How many works the shard holds.
    package var workCount: Int { counts.values.reduce(0, +) }

    /// Applies a row read from the topic; nil is a tombstone. Returns the artists whose works
    /// changed, whose buckets are to be rendered again.
    ///
    /// The row's artist is taken in ``CanonicalText`` when that name is this shard's: the counts
    /// here are keyed by `String`, which holds canonically equivalent spellings as one, while
    /// ``ShardLineTable`` keeps names by their bytes; in one spelling an artist's count and its
    /// works are one group, whatever spelling a row of the topic carries. A row whose name in
    /// ``CanonicalText`` is another shard's (a line placed by the bytes of a spelling that is not
    /// NFC) is taken in NFD, so that such spellings too are one group here, until the works
    /// stage takes the line out (``WorkState/Writes/relocation``) when its work's line is next
    /// written.
    @discardableResult
    package mutating func apply(_ work: WorkKey, _ row: Row?) throws -> Set<String> {
        var row = row
        if let artist = row?.artist, !CanonicalText.isASCII(artist) {
            let grouped = CanonicalText.of(artist)
            let isOwn = layout.map { $0.shard(ofArtist: grouped) == shard } ?? true
            row?.artist = isOwn ? grouped : CanonicalText.decomposed(artist)
        }
        let before = try lines.row(of: work)
        guard before != row else { return [] }
        try lines.set(row, of: work)
        if let before { remove(before) }
        if let row { add(row) }
        return Set([before?.artist, row?.artist].compactMap { $0 })
    }

    /// Counts the lines its table holds already (kept from a clean stop): each artist with its
    /// count of lines, and the lines by thumbnail status; what ``apply(_:_:)`` counted when it
    /// wrote them. No artist counts as changed: a view that is not whole renders only what rows
    /// change from here on.
    package mutating func adopt(artists: [(name: String, count: Int)], thumbnails: [String: Int]) {
        for (name, count) in artists {
            if counts[name] == nil {
                keys[name] = ArtistIndex.collationKey(name)
                if went.remove(name) == nil { came.insert(name) }
            }
            counts[name, default: 0] += count
        }
        self.thumbnails.merge(thumbnails, uniquingKeysWith: +)
    }

    /// The shard's works by thumbnail status: for a checkpoint, as the lines alone take a pass to count it.
    package var thumbnailTally: [String: Int] { thumbnails }

    private mutating func remove(_ row: Row) {
        note(row.artist)
        counts[row.artist, default: 0] -= 1
        if counts[row.artist] == 0 {
            (counts[row.artist], keys[row.artist]) = (nil, nil)
            if came.remove(row.artist) == nil { went.insert(row.artist) }
        }
        thumbnails[row.work.thumbnailStatus, default: 0] -= 1
        if thumbnails[row.work.thumbnailStatus] == 0 { thumbnails[row.work.thumbnailStatus] = nil }
    }

    private mutating func add(_ row: Row) {
        note(row.artist)
        if counts[row.artist] == nil {
            keys[row.artist] = ArtistIndex.collationKey(row.artist)
            // One that went and came back since the last view is still in the order.
            if went.remove(row.artist) == nil { came.insert(row.artist) }
        }
        counts[row.artist, default: 0] += 1
        thumbnails[row.work.thumbnailStatus, default: 0] += 1
    }

    private mutating func note(_ artist: String) {
        if changed[artist] == nil { changed[artist] = counts[artist] ?? 0 }
    }

    /// By object number; two works with one (records of two sources) by record id, then page id.
    /// Field by field: arrays of the three made for each comparison took over half of a view's
    /// time (perf, a new page at four million works).
    static func workOrder(_ a: ArtistIndex.Work, _ b: ArtistIndex.Work) -> Bool {
        let number = ArtistIndex.scalarsOrder(a.objectNumber, b.objectNumber)
        if number != 0 { return number < 0 }
        let record = ArtistIndex.scalarsOrder(a.recordId ?? "", b.recordId ?? "")
        if record != 0 { return record < 0 }
        return ArtistIndex.scalarsPrecede(a.pageId, b.pageId)
    }

    /// The artists in index order.
    private mutating func artistsInOrder() -> [String] {
        guard !came.isEmpty || !went.isEmpty else { return order }
        if came.count > order.count / 16 {
            // Many (a restore): one sort of all.
            order = keys.sorted { ArtistIndex.artistOrder($0.key, $0.value, $1.key, $1.value) }.map(\.key)
        } else {
            if !went.isEmpty { order.removeAll { went.contains($0) } }
            let precedes = { [keys] (a: String, b: String) in ArtistIndex.artistOrder(a, keys[a]!, b, keys[b]!) }
            for artist in came.sorted(by: precedes) { order.insert(artist, keepingOrder: precedes) }
        }
        (came, went) = ([], [])
        return order
    }

    private func works(of artist: String) throws -> [ArtistIndex.Work] {
        try lines.works(of: artist).sorted(by: Self.workOrder)
    }

    /// What the publisher renders, and forgets what changed: every artist with its count, and
    /// the works of the artists in the buckets the changes touched (or of all, `whole`; of none,
    /// `summaryOnly`: nothing is rendered yet, so the next view must be whole).
    package mutating func view(shards: IndexShards, whole: Bool, summaryOnly: Bool = false) throws -> ShardView {
        let names = artistsInOrder()
        let artists = names.map { IndexContent.Artist(name: $0, workCount: counts[$0] ?? 0) }
        if summaryOnly {
            changed = [:]
            return ShardView(shard: shard, artists: artists, works: [:], buckets: [], thumbnails: thumbnails)
        }
        var buckets: Set<Int>?
        if !whole {
            var touched = Set<Int>()
            for (artist, before) in changed {
                let slices = max(Self.sliceCount(before), Self.sliceCount(counts[artist] ?? 0))
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
            works[artist.name] = try self.works(of: artist.name)
        }
        return ShardView(shard: shard, artists: artists, works: works, buckets: buckets, thumbnails: thumbnails)
    }

    /// ``view(shards:whole:summaryOnly:)`` handed to `body` in parts when whole: each part the
    /// works of the artists with a slice in at most `bucketsPerPart` of the shard's buckets, read
    /// when its turn comes, so a whole shard's works are never in memory at once (833,000 works a
    /// shard at 10 million works over 12 partitions). Every part shows every artist and count, as
    /// one view would; `last` is the final part's. Not whole, or summary only: one view.
    package mutating func views(
        shards: IndexShards, whole: Bool, summaryOnly: Bool = false, bucketsPerPart: Int,
        _ body: (_ view: ShardView, _ last: Bool) throws -> Void
    ) throws {
        guard comesInParts(shards: shards, whole: whole, summaryOnly: summaryOnly, bucketsPerPart: bucketsPerPart)
        else {
            try body(try view(shards: shards, whole: whole, summaryOnly: summaryOnly), true)
            return
        }
        let own = buckets(shards)
        let artists = artistsInOrder().map { IndexContent.Artist(name: $0, workCount: counts[$0] ?? 0) }
        changed = [:]
        var artistsOfBucket: [Int: [String]] = [:]
        for artist in artists {
            for slice in 0..<Self.sliceCount(artist.workCount) {
                artistsOfBucket[shards.bucket(of: artist.name, slice: slice), default: []].append(artist.name)
            }
        }
        for start in stride(from: 0, to: own.count, by: bucketsPerPart) {
            let part = own[start..<min(start + bucketsPerPart, own.count)]
            var works: [String: [ArtistIndex.Work]] = [:]
            for bucket in part {
                for artist in artistsOfBucket[bucket] ?? [] where works[artist] == nil {
                    works[artist] = try self.works(of: artist)
                }
            }
            try body(
                ShardView(shard: shard, artists: artists, works: works, buckets: Set(part), thumbnails: thumbnails),
                part.endIndex == own.count)
        }
    }

    /// Whether ``views(shards:whole:summaryOnly:bucketsPerPart:_:)`` hands out more than one view.
    package func comesInParts(shards: IndexShards, whole: Bool, summaryOnly: Bool, bucketsPerPart: Int) -> Bool {
        whole && !summaryOnly && buckets(shards).count > bucketsPerPart
    }

    /// The buckets of this shard.
    private func buckets(_ shards: IndexShards) -> [Int] {
        (0..<IndexLayout.bucketCount).filter { shards.shard(ofBucket: $0) == shard }
    }

    private static func sliceCount(_ works: Int) -> Int {
        max((works + IndexLayout.sliceSize - 1) / IndexLayout.sliceSize, 1)
    }

    /// The shard's artists and their works, in index order: what its buckets and summary are made from.
    package var index: ArtistIndex {
        get throws {
            var copy = self
            return try copy.view(shards: .one, whole: true).content.index
        }
    }
}
