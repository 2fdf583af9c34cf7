/// Where a shard's lines are kept: each work's row by its key, read back by artist. In memory
/// for the one-pass build and the tests (``ShardLinesInMemory``); on the copy's own disk for a
/// running copy (``ShardLinesOnDisk``). Used by one caller at a time (its shard's owner).
package protocol ShardLineTable: AnyObject, Sendable {
    func row(of work: WorkKey) throws -> ShardWorks.Row?
    /// Puts `row` as the work's line (nil: takes the work out).
    func set(_ row: ShardWorks.Row?, of work: WorkKey) throws
    /// The works `artist` groups, in no particular order.
    func works(of artist: String) throws -> [ArtistIndex.Work]
}
