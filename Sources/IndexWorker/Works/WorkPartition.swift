/// The works stage's state for one partition of `artpipe.index-works`: every work's rows, and
/// which shard of `artpipe.index-artists` holds each work's line, and which line.
package struct WorkPartition: Sendable {
    /// Where a work's line went: its shard, and a digest of the line (the line itself is the
    /// artist stage's; kept here too it was a second copy of every work: about 580 of 1,100 bytes
    /// a work by `artpipe-probe index-memory --versioned`).
    /// Swift's keyed 64-bit hash: two different lines share one by chance once in 2^64. In
    /// process only: a partition restored computes its digests again.
    struct LineMark: Sendable, Equatable {
        var shard: Int
        var digest: Int
    }

    package private(set) var works: [WorkKey: WorkRows] = [:]
    /// Each work's line in `artpipe.index-artists`, as the works' rows make it now.
    private(set) var lines: [WorkKey: LineMark] = [:]
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
        let mark = after.map { LineMark(shard: shards.shard(ofArtist: $0.artist), digest: $0.hashValue) }
        guard before != mark else { return writes }
        lines[work] = mark
        if let from = before?.shard, from != mark?.shard {
            writes.artists.append(ArtistWrite(work: work, shard: from, row: nil))
        }
        if let mark, let after { writes.artists.append(ArtistWrite(work: work, shard: mark.shard, row: after)) }
        return writes
    }
}
