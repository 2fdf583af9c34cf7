/// One shard as its publisher renders it (``ShardWorks/view(shards:whole:)``): every artist with
/// its count, in index order; the works of those whose buckets are rendered again; its tally.
package struct ShardView: Sendable {
    package let shard: Int
    let artists: [IndexContent.Artist]
    /// By artist, in index order: only the artists with a slice in ``buckets``.
    let works: [String: [ArtistIndex.Work]]
    /// The buckets whose files are to be rendered again; nil: every bucket of the shard.
    let buckets: Set<Int>?
    /// Works by thumbnail status.
    let thumbnails: [String: Int]

    init(
        shard: Int, artists: [IndexContent.Artist], works: [String: [ArtistIndex.Work]], buckets: Set<Int>?,
        thumbnails: [String: Int]
    ) {
        (self.shard, self.artists, self.works, self.buckets, self.thumbnails) = (
            shard, artists, works, buckets, thumbnails
        )
    }

    /// A shard that holds no works, rendered whole (its files, if any, go).
    init(empty shard: Int) {
        self.init(shard: shard, artists: [], works: [:], buckets: nil, thumbnails: [:])
    }

    /// The shard's part of the index, its works read from ``works``.
    var content: IndexContent {
        let (artists, works) = (self.artists, self.works)
        return IndexContent(
            totals: ArtistIndex.Totals(
                artists: artists.count, works: artists.map(\.workCount).reduce(0, +), pages: 0, failedPages: 0,
                thumbnails: [:]),
            crawls: [], artists: artists,
            works: { artist, range in
                // The counts and the works come from one grouping (``ArtistIndex/groupName(_:)``),
                // so `range` lies within the works; clamped all the same, since a slice past
                // them would end the process.
                let all = works[artists[artist].name] ?? []
                return Array(all[range.clamped(to: all.indices)])
            })
    }

    /// What the shard's owner says of it for the shared files.
    var summary: ShardSummary {
        ShardSummary(
            shard: shard, artists: artists.map { ShardSummary.Artist(name: $0.name, works: $0.workCount) },
            thumbnails: thumbnails)
    }
}
