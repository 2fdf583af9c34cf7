/// One work as the works stage holds it: its rows, and where its line went (which shard of
/// `artpipe.index-artists` holds it, and which line).
package struct WorkState: Sendable {
    package private(set) var rows: WorkRows
    private(set) var line: LineMark?

    /// Where a work's line went: its shard, and a digest of the line (the line itself is the
    /// artist stage's; kept here too it was a second copy of every work: about 580 of 1,100 bytes
    /// a work by `artpipe-probe index-memory --versioned`).
    /// Swift's keyed 64-bit hash: two different lines share one by chance once in 2^64. In
    /// process only: a store is made afresh by each process, and restored computes them again.
    struct LineMark: Sendable, Equatable {
        var shard: Int
        var digest: Int
    }

    package init(work: WorkKey) {
        rows = WorkRows(work: work)
    }

    init(rows: WorkRows, line: LineMark?) {
        (self.rows, self.line) = (rows, line)
    }

    /// No row left: the work's state can go.
    package var isEmpty: Bool { rows.isEmpty }

    /// A row for `artpipe.index-artists`: `row` nil takes the work out of `shard`.
    package struct ArtistWrite: Sendable, Equatable {
        package var work: WorkKey
        package var shard: Int
        package var row: ShardWorks.Row?
    }

    /// What applying one row asks to write: to `artpipe.index-artists` only.
    package struct Writes: Sendable, Equatable {
        package var artists: [ArtistWrite] = []
        /// A tombstone in the shard the maker's name as written (not in ``CanonicalText``)
        /// places the work in, where that is another shard than its group name's: a line under
        /// that spelling may stand there (``ShardWorks`` keeps a spelling whose group name is
        /// another shard's), and the work's line now goes to its group name's shard.
        package var relocation: ArtistWrite?
    }

    /// The shard `artist` as written places a line in, when its bytes are not its group
    /// name's and that shard is not `shard`; nil otherwise.
    static func shard(asWritten artist: String, unless shard: Int, shards: IndexShards) -> Int? {
        let trimmed = artist.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.utf8.elementsEqual(ArtistIndex.groupName(trimmed).utf8) else { return nil }
        let spelt = shards.shard(ofArtist: trimmed)
        return spelt == shard ? nil : spelt
    }

    /// The state of a work whose rows are `rows`, its line where they put it: what a state
    /// restored from its changelog (``WorkState+Changelog``) is, its line written when its rows
    /// were applied.
    init(restoring rows: WorkRows, shards: IndexShards) {
        self.init(rows: rows, line: Self.line(of: rows, shards: shards)?.mark)
    }

    /// The work's line as `rows` make it, and where it goes; nil when they show no work.
    private static func line(of rows: WorkRows, shards: IndexShards) -> (row: ShardWorks.Row, mark: LineMark)? {
        guard let work = rows.indexed else { return nil }
        let row = ShardWorks.Row(artist: ArtistIndex.groupName(rows.shown?.artwork?.artist ?? ""), work: work)
        return (row, LineMark(shard: shards.shard(ofArtist: row.artist), digest: row.hashValue))
    }

    /// The work's line written again where its rows put it, and a tombstone in every other
    /// shard: for a work whose state a restore found ahead of the lines sent for it (its
    /// changelog row goes first, ``WorksStage``), whichever of its lines reached its shards.
    package func rewritten(shards: IndexShards) -> [ArtistWrite] {
        let line = Self.line(of: rows, shards: shards)
        return (0..<shards.count).map { shard in
            ArtistWrite(work: rows.work, shard: shard, row: shard == line?.mark.shard ? line?.row : nil)
        }
    }

    /// Applies a row of the work read from the topic (`row` nil: a tombstone of `key`).
    package mutating func apply(key: String, row: WorkRow?, shards: IndexShards) -> Writes {
        rows.apply(key: key, row: row)
        var writes = Writes()
        let made = Self.line(of: rows, shards: shards)
        let (after, mark) = (made?.row, made?.mark)
        guard line != mark else { return writes }
        let before = line
        line = mark
        if let mark, let written = rows.shown?.artwork?.artist, !CanonicalText.isASCII(written),
            let spelt = Self.shard(asWritten: written, unless: mark.shard, shards: shards)
        {
            writes.relocation = ArtistWrite(work: rows.work, shard: spelt, row: nil)
        }
        if let from = before?.shard, from != mark?.shard {
            writes.artists.append(ArtistWrite(work: rows.work, shard: from, row: nil))
        }
        if let mark, let after { writes.artists.append(ArtistWrite(work: rows.work, shard: mark.shard, row: after)) }
        return writes
    }
}
