/// The artist shards this copy holds: each begins empty at its assignment and is read again
/// from the topic; a shard changed since it was last published is marked so.
package actor ShardStates {
    private struct Held {
        var generation: Int
        var works: ShardWorks
        /// Changed since the publisher last took it.
        var changed = true
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

    /// The shard's works under the assignment `generation`, if they changed since last taken
    /// (or `always`); marks them taken. A shard no row came to under it holds no works.
    func take(_ shard: Int, generation: Int, always: Bool) -> ShardWorks? {
        guard var entry = held[shard], entry.generation == generation else {
            return always ? ShardWorks(shard: shard) : nil
        }
        guard entry.changed || always else { return nil }
        entry.changed = false
        held[shard] = entry
        return entry.works
    }

    /// Lets go of the shards no longer held.
    func keep(only shards: Set<Int>) {
        held = held.filter { shards.contains($0.key) }
    }

    /// Marks a shard changed again: its last publish did not finish.
    func republish(_ shard: Int) {
        held[shard]?.changed = true
    }
}
