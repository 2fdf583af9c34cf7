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

    package init(shards: ShardStates) {
        progress = StageProgress()
        self.shards = shards
    }

    /// A partition's messages share round trips: none waits on the last one's rows.
    package var sendsInRuns: Bool { true }

    package func configure(_ consumer: inout KafkaConsumerConfiguration) {
        progress.follow(&consumer, startingAt: KafkaConsumerConfiguration.beginningOffset)
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> Input {
        try progress.decoding(message, IndexTopicRecords.artistRow)
    }

    package func handle(_ input: Input, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let message = context.message
        let shard = Int(message.partition)
        try await shards.apply(input.work, input.row, shard: shard, generation: progress.held[shard] ?? 0)
        progress.read(message.topic, partition: shard, upTo: message.offset + 1)
        return []
    }
}
