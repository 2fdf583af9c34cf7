import ArtpipeRuntime
import KafkaClient
import Logging
import PipelineContract
import StreamTasks

/// Stage B of the index (docs/architecture.md, "The index at scale"): reads
/// `artpipe.index-works` by work, which is also its changelog (its state is a function of the
/// topic's rows, ``WorkRows``; it writes none of them). A partition assigned is restored from
/// the topic up to the group's committed offset (its outputs were written when those rows were
/// first handled), and read from there: each row's consequence is written, the work's changed
/// line to its artist's shard of `artpipe.index-artists`.
package struct WorksStage: MessageHandler {
    package typealias Input = (work: WorkKey, key: String, row: WorkRow?)

    package let progress: StageProgress
    let states: WorkStore

    package init(states: WorkStore, kafka: KafkaClientConfiguration, logger: Logger) {
        progress = StageProgress(
            restore: .init(
                .input(ArtpipeTopic.indexWorks), store: states,
                restorer: ChangelogRestorer(kafka: kafka, logger: logger)))
        self.states = states
    }

    /// A partition's messages share round trips: none waits on the last one's rows.
    package var sendsInRuns: Bool { true }

    package func configure(_ consumer: inout KafkaConsumerConfiguration) {
        progress.follow(&consumer)
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> Input {
        try progress.decoding(message, IndexTopicRecords.workRow)
    }

    package func handle(_ input: Input, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let message = context.message
        let partition = Int(message.partition)
        let epoch = try await progress.epoch(of: partition, under: context.lease)
        // Below where the restore read: in the state already, its outputs written when first handled.
        guard !progress.wasRestored(message.offset, partition: partition) else {
            progress.read(message.topic, partition: partition, upTo: message.offset + 1, under: epoch)
            return []
        }
        let writes = try await states.apply(
            to: partition, epoch: epoch, work: input.work, key: input.key, row: input.row)
        progress.read(message.topic, partition: partition, upTo: message.offset + 1, under: epoch)
        let relocation = try writes.relocation.map { try [IndexTopicRecords.record($0)] } ?? []
        return try writes.artists.map(IndexTopicRecords.record) + relocation
    }

    /// The assembler on this copy need not wait for the group's next commit to know the rows
    /// went through (``ShardPublisher``).
    package func finished(_ message: KafkaConsumerMessage) {
        progress.settled(message.topic, partition: Int(message.partition), upTo: message.offset + 1)
    }
}
