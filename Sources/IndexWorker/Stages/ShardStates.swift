/// The artist shards this copy holds: each begins empty at its assignment and is read again
/// from the topic; a shard changed since it was last published is marked so, and rendered
/// again only where it changed.
package actor ShardStates {
    private struct Held {
        var generation: Int
        var works: ShardWorks
        /// Changed since the publisher last took it.
        var changed = true
        /// To be rendered whole at the next take: its last publish did not finish.
        var whole = true
    }

    private var held: [Int: Held] = [:]

    func apply(_ work: WorkKey, _ row: ShardWorks.Row?, shard: Int, generation: Int) {
        // Taken out, not copied: mutated while the dictionary still held it, every row would
        // copy the shard's whole state.
        var entry =
            held.removeValue(forKey: shard).flatMap { $0.generation == generation ? $0 : nil }
            ?? Held(generation: generation, works: ShardWorks(shard: shard))
        if !entry.works.apply(work, row).isEmpty { entry.changed = true }
        held[shard] = entry
    }

    /// A view of the shard's works under the assignment `generation`, if they changed since
    /// last taken (or `always`, then whole); marks them taken. A shard no row came to under it
    /// holds no works.
    /// `summaryOnly`: the works are not rendered yet (the index is bootstrapping); the shard is
    /// then taken whole the next time.
    func take(_ shard: Int, generation: Int, always: Bool, shards: IndexShards, summaryOnly: Bool = false)
        -> ShardView?
    {
        guard var entry = held.removeValue(forKey: shard) else {
            return always ? ShardView(empty: shard) : nil
        }
        defer { held[shard] = entry }
        guard entry.generation == generation else {
            return always ? ShardView(empty: shard) : nil
        }
        guard entry.changed || always else { return nil }
        let view = entry.works.view(shards: shards, whole: always || entry.whole, summaryOnly: summaryOnly)
        (entry.changed, entry.whole) = (false, summaryOnly)
        return view
    }

    /// Lets go of the shards no longer held.
    func keep(only shards: Set<Int>) {
        held = held.filter { shards.contains($0.key) }
    }

    /// Marks a shard to be rendered whole again: its last publish did not finish.
    func republish(_ shard: Int) {
        held[shard]?.changed = true
        held[shard]?.whole = true
    }
}
