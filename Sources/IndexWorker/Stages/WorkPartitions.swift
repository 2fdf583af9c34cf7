/// The works stage's partitions this copy holds: each begins empty at its assignment, and is
/// read again from the topic.
package actor WorkPartitions {
    private var held: [Int: (generation: Int, state: WorkPartition)] = [:]
    private let shards: IndexShards

    init(shards: IndexShards) {
        self.shards = shards
    }

    func apply(
        to partition: Int, generation: Int, _ change: @Sendable (inout WorkPartition) -> WorkPartition.Writes
    ) -> WorkPartition.Writes {
        // Taken out, not copied: mutated while the dictionary still held it, every change would
        // copy the partition's whole state.
        var state =
            held.removeValue(forKey: partition).flatMap { $0.generation == generation ? $0.state : nil }
            ?? WorkPartition(shards: shards)
        let writes = change(&state)
        held[partition] = (generation, state)
        return writes
    }
}
