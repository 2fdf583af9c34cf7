/// The works stage's state for one partition of `artpipe.index-works`: every work's rows, and
/// the line each work shows in `artpipe.index-artists` (what the artist stage holds of it).
package struct WorkPartition: Sendable {
    package private(set) var works: [WorkKey: WorkRows] = [:]
    /// Each work's row in `artpipe.index-artists`, as the works' rows make it now.
    package private(set) var lines: [WorkKey: ShardWorks.Row] = [:]
    let shards: IndexShards

    package init(shards: IndexShards) {
        self.shards = shards
    }

    /// A row for `artpipe.index-artists`: `row` nil takes the work out of `shard`.
    package struct ArtistWrite: Sendable, Equatable {
        package var work: WorkKey
        package var shard: Int
        package var row: ShardWorks.Row?
    }

    /// What applying one row asks to write.
    package struct Writes: Sendable, Equatable {
        /// Back to `artpipe.index-works`: superseded versions' tombstones, better thumbnails again.
        package var rows: [WorkRows.WriteBack] = []
        package var artists: [ArtistWrite] = []
    }

    /// Applies a row of `work` read from the topic (`row` nil: a tombstone of `key`).
    package mutating func apply(_ work: WorkKey, key: String, row: WorkRow?) -> Writes {
        var rows = works[work] ?? WorkRows(work: work)
        var writes = Writes(rows: rows.apply(key: key, row: row))
        works[work] = rows.isEmpty ? nil : rows
        let before = lines[work]
        let after = rows.indexed.map {
            ShardWorks.Row(artist: ArtistIndex.groupName(rows.shown?.artwork?.artist ?? ""), work: $0)
        }
        guard before != after else { return writes }
        lines[work] = after
        let (from, to) = (
            before.map { shards.shard(ofArtist: $0.artist) }, after.map { shards.shard(ofArtist: $0.artist) }
        )
        if let from, from != to { writes.artists.append(ArtistWrite(work: work, shard: from, row: nil)) }
        if let to, let after { writes.artists.append(ArtistWrite(work: work, shard: to, row: after)) }
        return writes
    }
}
