import ArtpipeRuntime
import KafkaClient
import Logging
import PipelineContract
import StreamTasks

/// Stage B of the index (docs/architecture.md, "The index at scale"): reads
/// `artpipe.index-works` by work and keeps each work's state (``WorkRows``, a function of the
/// rows the topic holds), with a changelog of its own, `artpipe.index-works-state`: a row per
/// work, on the partition of the input row that changed it, naming that row's offset. A
/// partition assigned is restored from its changelog (where that holds nothing, the input is
/// read from its start) and read from the group's committed offset; a row the restored state
/// shows already changes nothing. Each change sends the work's changelog row, then, once that
/// is acknowledged, its consequence: the work's changed line to its artist's shard of
/// `artpipe.index-artists`; now and then a mark of where the lines are known sent. A restore
/// may so find works ahead of their lines: ``WorkStore`` writes those changed since the mark
/// again whole before anything else.
package struct WorksStage: MessageHandler {
    package typealias Input = (work: WorkKey, key: String, row: WorkRow?)

    package let progress: StageProgress
    let states: WorkStore
    let logger: Logger

    package init(states: WorkStore, kafka: KafkaClientConfiguration, logger: Logger) {
        progress = StageProgress(
            restore: .init(
                .own(ArtpipeTopic.indexWorksState), store: states,
                restorer: ChangelogRestorer(kafka: kafka, logger: logger)))
        self.states = states
        self.logger = logger
    }

    /// A partition's messages share round trips: none waits on the last one's rows.
    package var sendsInRuns: Bool { true }

    /// A work's state is sent before the lines its change writes: what a line leaves (the shard
    /// it was in) is known only from the state before, which a restore must not miss.
    package var changelog: StoreChangelog? { StoreChangelog(ArtpipeTopic.indexWorksState, order: .beforeOutputs) }

    /// Follows the consumer's assignments; a partition whose changelog holds nothing is read
    /// from its start (a new state: a first run, an upgrade, the changelog deleted).
    package func configure(_ consumer: inout KafkaConsumerConfiguration) {
        consumer.changelog = ArtpipeTopic.indexWorksState
        progress.follow(&consumer)
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> Input {
        // Not through `progress.decoding`: messages decoded ahead wait to be handled together, and
        // one it cannot read counts as read only once finished (``finished(_:)``), after them.
        try IndexTopicRecords.workRow(message)
    }

    package func handle(_ input: Input, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let message = context.message
        let partition = Int(message.partition)
        let epoch = try await progress.epoch(of: partition, under: context.lease)
        let change = try await states.apply(
            to: partition, epoch: epoch, offset: message.offset, work: input.work, key: input.key, row: input.row)
        progress.read(message.topic, partition: partition, upTo: message.offset + 1, under: epoch)
        return records(of: change, for: message)
    }

    /// Messages of a partition apply together: one visit to the store, under one lock.
    package var handledTogether: Int { 256 }

    /// ``handle(_:context:)`` of consecutive messages of one partition, their rows applied in
    /// one visit to the store.
    package func handle(together inputs: [(input: Input, context: MessageContext)]) async -> HandledTogether {
        guard let first = inputs.first?.context else { return HandledTogether() }
        let partition = Int(first.message.partition)
        let epoch: AssignmentEpoch
        do {
            epoch = try await progress.epoch(of: partition, under: first.lease)
        } catch {
            return HandledTogether(failure: error)
        }
        let applied = await states.apply(
            to: partition, epoch: epoch,
            rows: inputs.map {
                WorkStore.InputRow(
                    offset: $0.context.message.offset, work: $0.input.work, key: $0.input.key, row: $0.input.row)
            })
        var handled = HandledTogether(failure: applied.failure)
        handled.outputs.reserveCapacity(applied.changes.count)
        for (change, (_, context)) in zip(applied.changes, inputs) {
            handled.outputs.append(records(of: change, for: context.message))
        }
        if let last = inputs.prefix(applied.changes.count).last?.context.message {
            progress.read(last.topic, partition: partition, upTo: last.offset + 1, under: epoch)
        }
        return handled
    }

    /// The records a change sends: its changelog rows and lines, in ``StoreChangelog``'s order.
    private func records(of change: WorkStore.Change, for message: KafkaConsumerMessage) -> [KafkaProducerRecord] {
        var records = change.restated.map {
            IndexTopicRecords.record($0.state, partition: message.partition, inputOffset: $0.inputOffset)
        }
        records += (change.rewritten + change.writes.artists).map(IndexTopicRecords.record)
        if let relocation = change.writes.relocation { records.append(IndexTopicRecords.record(relocation)) }
        if let state = change.state {
            records.append(IndexTopicRecords.record(state, partition: message.partition, inputOffset: message.offset))
        }
        if let position = change.linesSent {
            records.append(IndexTopicRecords.linesSent(position, partition: message.partition))
        }
        return records
    }

    /// Outputs not acknowledged (a record refused for good; the runtime handles the messages
    /// again one at a time): the next row writes the unsure works again, those changes among them.
    package func outputsSettled(of message: KafkaConsumerMessage, acknowledged: Bool) async {
        guard !acknowledged, states.outputsLost(in: Int(message.partition), at: message.offset) else { return }
        logger.error(
            "outputs of a rewrite of unsure works were refused: their lines are written again at the partition's next restore",
            metadata: ["kafka.topic": "\(message.topic)", "kafka.partition": "\(message.partition)"])
    }

    /// The assembler on this copy need not wait for the group's next commit to know the rows
    /// went through (``ShardPublisher``).
    package func finished(_ message: KafkaConsumerMessage) {
        // A message dead-lettered (unreadable, or refused for good) counts as read.
        progress.read(message.topic, partition: Int(message.partition), upTo: message.offset + 1)
        progress.settled(message.topic, partition: Int(message.partition), upTo: message.offset + 1)
        states.settled(Int(message.partition), upTo: message.offset + 1)
    }
}
