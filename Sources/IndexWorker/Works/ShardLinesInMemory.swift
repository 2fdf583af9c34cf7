/// A shard's lines in memory: the one-pass build's (``StagedIndexBuild``) and the tests'.
package final class ShardLinesInMemory: ShardLineTable, @unchecked Sendable {
    private var rows: [WorkKey: ShardWorks.Row] = [:]
    private var members: [String: Set<WorkKey>] = [:]

    package init() {}

    package func row(of work: WorkKey) -> ShardWorks.Row? { rows[work] }

    package func set(_ row: ShardWorks.Row?, of work: WorkKey) {
        if let before = rows[work] {
            members[before.artist]?.remove(work)
            if members[before.artist]?.isEmpty == true { members[before.artist] = nil }
        }
        if let row { members[row.artist, default: []].insert(work) }
        rows[work] = row
    }

    package func works(of artist: String) -> [ArtistIndex.Work] {
        (members[artist] ?? []).compactMap { rows[$0]?.work }
    }
}
