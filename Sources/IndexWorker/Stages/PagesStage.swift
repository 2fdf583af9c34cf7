import ArtpipeRuntime
import KafkaClient
import Logging
import NIOPosix
import PipelineContract
import StreamTasks

/// Stage A of the index (docs/architecture.md, "The index at scale"): reads pages, thumbnails
/// and failed page requests by page id, keeps each page's entry (its changelog
/// `artpipe.index-pages`) and writes each work's rows to `artpipe.index-works`, by work.
///
/// Its consumer uses the range assignor, so partition p of its three inputs (co-partitioned by
/// page id) is held by one copy, which restores the partition's entries from the changelog
/// before it handles any of them. It hears when its rows are acknowledged, so that a
/// partition's summary is taken only when the topics hold every row it counts.
package struct PagesStage: MessageHandler {
    package typealias Input = IndexInput

    /// The partition count of the index's topics.
    let partitions: Int
    package let progress: StageProgress
    let states: PagePartitions
    /// Partitions held back because their history is missing.
    package let gaps: HistoryGaps

    /// - Parameter entries: where its pages' entries are kept; nil: in memory.
    package init(
        partitions: Int, kafka: KafkaClientConfiguration, acceptsMissingHistory: Bool, entries: PageEntryFile? = nil,
        storeThreads: NIOThreadPool, logger: Logger
    ) {
        self.partitions = partitions
        states = PagePartitions(file: entries, threadPool: storeThreads, logger: logger)
        progress = StageProgress(
            restore: .init(
                .own(ArtpipeTopic.indexPages), store: states,
                restorer: ChangelogRestorer(kafka: kafka, logger: logger)))
        gaps = HistoryGaps(accepts: acceptsMissingHistory, logger: logger)
    }

    /// Sets the consumer up as this stage reads: the range assignor, its changelog (an empty
    /// one means the inputs are read from their start), its assignments followed (each begins
    /// the partition's restore) and checked for missing history.
    package func configure(_ consumer: inout KafkaConsumerConfiguration) {
        consumer.client.properties["partition.assignment.strategy"] = "range"
        consumer.changelog = ArtpipeTopic.indexPages
        let gaps = self.gaps
        progress.follow(&consumer)
        let (start, revoke) = (consumer.startOffset, consumer.onRevoke)
        consumer.startOffset = { topicPartition, committed, earliest in
            gaps.check(topicPartition, committed: committed, earliest: earliest)
            return start?(topicPartition, committed, earliest)
        }
        consumer.onRevoke = { partitions, lost in
            gaps.revoked(partitions)
            revoke?(partitions, lost)
        }
    }

    /// A partition's messages share round trips: none waits on the last one's rows.
    package var sendsInRuns: Bool { true }

    /// A page's entry is acknowledged before its rows are sent, so a restored entry may be ahead of
    /// its rows, never behind them. The message it came from is not committed until its rows are
    /// acknowledged: it is handled again over that entry, or, where compaction of its input topic
    /// kept only a later version of the page, that version is, and either writes every row of
    /// what the page lists now and takes back what the entry names (the works it listed, and
    /// ``PageEntry/retracted``). Rows written ahead of their entry could not be taken back once
    /// compaction removed the version that wrote them.
    package static let changelogOrder = StoreChangelog.Order.beforeOutputs

    package var changelog: StoreChangelog? { StoreChangelog(ArtpipeTopic.indexPages, order: Self.changelogOrder) }

    package func holds(_ message: KafkaConsumerMessage) -> Bool {
        gaps.holds(message.partition)
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> Input {
        try progress.decoding(message, IndexInput.init)
    }

    package func handle(_ input: Input, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let message = context.message
        let partition = Int(message.partition)
        let epoch = try await progress.epoch(of: partition, under: context.lease)
        let change = PagePartitions.Change(message)
        let writes = try await states.apply(change, to: partition, epoch: epoch, input)
        var records = writes.works.map {
            IndexTopicRecords.record(work: $0.work, key: $0.key, row: $0.row, partitions: partitions)
        }
        // The entry; the runtime sends it first (``changelogOrder``).
        if let entry = writes.entry {
            records.append(IndexTopicRecords.record(entry, partition: message.partition))
        }
        return records
    }

    package func outputsSettled(of message: KafkaConsumerMessage, acknowledged: Bool) async {
        // Read under the assignment it was applied under; one not applied (its partition not
        // held under its lease's assignment) moves nothing.
        guard let epoch = await states.sent(PagePartitions.Change(message), succeeded: acknowledged), acknowledged
        else { return }
        progress.read(message.topic, partition: Int(message.partition), upTo: message.offset + 1, under: epoch)
    }
}
