import ArtpipeRuntime
import KafkaClient
import PipelineContract

/// Stage C of the index (docs/architecture.md, "The index at scale"): reads
/// `artpipe.index-artists`, one partition per artist shard, which is also its changelog: a
/// shard assigned is read from its start, and may be published once read to where it stood at
/// the assignment (``ShardPublisher``). It writes nothing to Kafka.
package struct ArtistsStage: MessageHandler {
    package typealias Input = (work: WorkKey, row: ShardWorks.Row?)

    package let progress: StageProgress
    package let shards: ShardStates

    package init() {
        progress = StageProgress()
        shards = ShardStates()
    }

    package func configure(_ consumer: inout KafkaConsumerConfiguration) {
        let progress = self.progress
        consumer.startOffset = {
            progress.starting($0, committed: $1, earliest: $2, at: KafkaConsumerConfiguration.beginningOffset)
        }
        consumer.onAssign = { progress.assigned($0) }
        consumer.onRevoke = { revoked, _ in progress.revoked(revoked) }
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> Input {
        do {
            return try IndexTopicRecords.artistRow(message)
        } catch {
            progress.read(message.topic, partition: Int(message.partition), upTo: message.offset + 1)
            throw error
        }
    }

    package func handle(_ input: Input, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let message = context.message
        let shard = Int(message.partition)
        await shards.apply(input.work, input.row, shard: shard, generation: progress.held[shard] ?? 0)
        progress.read(message.topic, partition: shard, upTo: message.offset + 1)
        return []
    }
}

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
        var entry =
            held[shard].flatMap { $0.generation == generation ? $0 : nil }
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

    /// How many works the shards hold.
    package var workCount: Int { held.values.map(\.works.rows.count).reduce(0, +) }
}
