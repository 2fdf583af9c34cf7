/// The works stage's state for one partition of `artpipe.index-works`, in memory: every work's
/// state by its key. The plain form of what ``WorkStore`` keeps on disk, for the staged build
/// in one pass and the tests.
package struct WorkPartition: Sendable {
    package private(set) var works: [WorkKey: WorkState] = [:]
    let shards: IndexShards

    package init(shards: IndexShards) {
        self.shards = shards
    }

    /// Sets a work's state from its rows, as its changelog holds them (empty: the work is gone).
    package mutating func restore(_ rows: WorkRows) {
        works[rows.work] = rows.isEmpty ? nil : WorkState(restoring: rows, shards: shards)
    }

    /// Applies a row of `work` read from the topic (`row` nil: a tombstone of `key`).
    package mutating func apply(_ work: WorkKey, key: String, row: WorkRow?) -> WorkState.Writes {
        var state = works.removeValue(forKey: work) ?? WorkState(work: work)
        let writes = state.apply(key: key, row: row, shards: shards)
        if !state.isEmpty { works[work] = state }
        return writes
    }
}
