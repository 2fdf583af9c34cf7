import ArtpipeRuntime
import KafkaClient
import Logging
import PipelineContract

/// Stage A of the index (docs/architecture.md, "The index at scale"): reads pages, thumbnails
/// and failed page requests by page id, keeps each page's entry (its changelog
/// `artpipe.index-pages`) and writes each work's rows to `artpipe.index-works`, by work.
///
/// Its consumer uses the range assignor, so partition p of its three inputs (co-partitioned by
/// page id) is held by one copy, which restores the partition's entries from the changelog
/// before it handles any of them.
package struct PagesStage: MessageHandler {
    package typealias Input = IndexMessageHandler.Input

    /// The partition count of the index's topics.
    let partitions: Int
    package let progress: StageProgress
    let states: PagePartitions

    package init(partitions: Int, kafka: KafkaClientConfiguration, logger: Logger) {
        self.partitions = partitions
        progress = StageProgress()
        states = PagePartitions(kafka: kafka, progress: progress, logger: logger)
    }

    /// Sets the consumer up as this stage reads: the range assignor, and its assignments
    /// followed (each starts the partition's restore).
    package func configure(_ consumer: inout KafkaConsumerConfiguration) {
        consumer.client.properties["partition.assignment.strategy"] = "range"
        let (progress, states) = (self.progress, self.states)
        consumer.startOffset = { progress.starting($0, committed: $1, earliest: $2) }
        consumer.onAssign = { assigned in
            progress.assigned(assigned)
            for partition in Set(assigned.map { Int($0.0.partition) }) {
                progress.expect(PagePartitions.restoreStep, partition: partition, endOffset: 1)
                let generation = progress.held[partition] ?? 0
                Task { try? await states.state(of: partition, generation: generation) }
            }
        }
        consumer.onRevoke = { revoked, _ in progress.revoked(revoked) }
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> Input {
        do {
            return try IndexMessageHandler.input(of: message)
        } catch {
            // Poison goes to the dead letters; the partition has read it all the same.
            progress.read(message.topic, partition: Int(message.partition), upTo: message.offset + 1)
            throw error
        }
    }

    package func handle(_ input: Input, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let message = context.message
        let partition = Int(message.partition)
        let generation = progress.held[partition] ?? 0
        let writes = try await states.apply(to: partition, generation: generation) { state in
            switch input {
            case .page(let page): state.apply(page)
            case .thumbnails(let thumbnails): state.apply(thumbnails)
            case .failedRequest(let request, let reason): state.apply(failed: request, reason: reason)
            case .other: PagePartition.Writes()
            }
        }
        var records = try writes.works.map {
            try IndexTopicRecords.record(work: $0.work, key: $0.key, row: $0.row, partitions: partitions)
        }
        // The entry last: what the page's rows were written from.
        if let entry = writes.entry {
            records.append(try IndexTopicRecords.record(entry, partition: message.partition))
        }
        progress.read(message.topic, partition: partition, upTo: message.offset + 1)
        return records
    }
}
