import ArtpipeRuntime
import KafkaClient
import Logging
import PipelineContract
import StreamTasks

/// Stage C of the index (docs/architecture.md, "The index at scale"): reads
/// `artpipe.index-artists`, one partition per artist shard, which is also its changelog: a
/// shard assigned is restored from the topic up to the group's committed offset and read from
/// there, and may be published once read to where it stood at the assignment
/// (``ShardPublisher``). It writes nothing to Kafka.
package struct ArtistsStage: MessageHandler {
    package typealias Input = (work: WorkKey, row: ShardWorks.Row?)

    package let progress: StageProgress
    package let shards: ShardStates

    package init(shards: ShardStates, kafka: KafkaClientConfiguration, logger: Logger) {
        progress = StageProgress(
            restore: .init(
                .input(ArtpipeTopic.indexArtists), store: shards,
                restorer: ChangelogRestorer(kafka: kafka, logger: logger)))
        self.shards = shards
    }

    /// A partition's messages share round trips: none waits on the last one's rows.
    package var sendsInRuns: Bool { true }

    package func configure(_ consumer: inout KafkaConsumerConfiguration) {
        progress.follow(&consumer)
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> Input {
        // Not through `progress.decoding`: messages decoded ahead wait to be handled together, and
        // one it cannot read counts as read only once finished (``finished(_:)``), after them.
        try IndexTopicRecords.artistRow(message)
    }

    /// A message dead-lettered (unreadable, or refused for good) counts as read, once every
    /// message before it is done with: the shard is ready only once it shows them.
    package func finished(_ message: KafkaConsumerMessage) {
        progress.read(message.topic, partition: Int(message.partition), upTo: message.offset + 1)
    }

    package func handle(_ input: Input, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let message = context.message
        let shard = Int(message.partition)
        let epoch = try await progress.epoch(of: shard, under: context.lease)
        // Below where the restore read: in the state already.
        if !progress.wasRestored(message.offset, partition: shard) {
            try await shards.apply(input.work, input.row, shard: shard, epoch: epoch, offset: message.offset)
        }
        progress.read(message.topic, partition: shard, upTo: message.offset + 1, under: epoch)
        return []
    }

    /// Messages of a shard apply together: one visit to the store, under one lock.
    package var handledTogether: Int { 256 }

    /// ``handle(_:context:)`` of consecutive messages of one shard, their lines applied in one
    /// visit to the store.
    package func handle(together inputs: [(input: Input, context: MessageContext)]) async -> HandledTogether {
        guard let first = inputs.first?.context else { return HandledTogether() }
        let shard = Int(first.message.partition)
        let epoch: AssignmentEpoch
        do {
            epoch = try await progress.epoch(of: shard, under: first.lease)
        } catch {
            return HandledTogether(failure: error)
        }
        // Below where the restore read: in the state already.
        let lines = inputs.filter { !progress.wasRestored($0.context.message.offset, partition: shard) }.map {
            (work: $0.input.work, row: $0.input.row, offset: $0.context.message.offset)
        }
        let (applied, failure) = await shards.apply(lines, shard: shard, epoch: epoch)
        // Where a line threw: the messages before it, the restored ones among them.
        var handled = inputs.count
        if failure != nil {
            let failed = applied < lines.count ? lines[applied].offset : inputs[0].context.message.offset
            handled = inputs.prefix { $0.context.message.offset < failed }.count
        }
        if let last = inputs.prefix(handled).last?.context.message {
            progress.read(last.topic, partition: shard, upTo: last.offset + 1, under: epoch)
        }
        return HandledTogether(outputs: Array(repeating: [], count: handled), failure: failure)
    }
}
