import ArtpipeSupport
import EmbeddedStore
import Foundation
import KafkaClient
import Logging
import NIOPosix
import PipelineContract
import StreamTasks

extension IndexStages {
    /// At a clean stop, every stage and the publisher stopped: seals the three store files and
    /// leaves a checkpoint beside each (``StoreCheckpoint``), naming the partitions whose state
    /// shows only its changelog, each at the lower of where this copy read or wrote it and where
    /// the brokers say it ends (a restore reads again from there, which changes nothing). A copy
    /// started again on the folder keeps them (``StateCheckpoints``). Whatever fails leaves no
    /// checkpoint for that file, said in the log: the next start restores it in full.
    package func seal(kafka: KafkaClientConfiguration, timeout: Duration, threadPool: NIOThreadPool, logger: Logger)
        async
    {
        guard
            let bounds = await StateFile.changelogBounds(
                kafka: kafka, timeout: timeout,
                consequence: "no checkpoint of the state; the next start restores it in full", logger: logger)
        else { return }
        let partitions = pages.partitions
        for file in StateFile.allCases {
            let (name, topic) = (file.name, file.topic)
            do {
                guard let sealed = try await seal(file, partitions: partitions) else { continue }
                guard let ends = bounds.partitions[topic] else {
                    logger.warning(
                        "no checkpoint of a state file: the brokers did not name its changelog; the next start restores its partitions in full",
                        metadata: ["state.file": "\(name)", "kafka.topic": "\(topic)"])
                    continue
                }
                let now = Date()
                var marks: [Int: StoreCheckpoint.Mark] = [:]
                for (partition, var mark) in sealed.partitions where partition < ends.count {
                    mark.offset = min(mark.offset, ends[partition].high)
                    // Followed the changelog until revoked (at the stop, or before); a mark kept
                    // from the last checkpoint keeps its date.
                    mark.asOf = mark.asOf ?? progress(of: file).revokedAt(partition) ?? now
                    marks[partition] = mark
                }
                let checkpoint = StoreCheckpoint(
                    cluster: bounds.clusterID, topic: topic, partitionCount: partitions, written: now,
                    fileBytes: sealed.fileBytes, partitions: marks, build: rendering.identity)
                let path = stateFolder.url.appendingPathComponent(name).path
                try await threadPool.runIfActive { try checkpoint.write(to: StoreCheckpoint.location(of: path)) }
                logger.info(
                    "state file sealed with its checkpoint",
                    metadata: [
                        "state.file": "\(name)", "kafka.topic": "\(topic)",
                        "kafka.partitions": "\(marks.keys.sorted())",
                    ])
            } catch {
                logger.warning(
                    "no checkpoint of a state file: the next start restores its partitions in full",
                    metadata: ["state.file": "\(name)", "error": "\(error)"])
            }
        }
    }

    /// Seals `file` and says where its partitions stand; nil when the stage keeps no file.
    private func seal(_ file: StateFile, partitions: Int) async throws -> (
        partitions: [Int: StoreCheckpoint.Mark], fileBytes: Int64
    )? {
        switch file {
        case .pages:
            try await pages.states.seal(acknowledged: acknowledged.ends(of: file.topic, partitions: partitions))
        case .works:
            try await works.states.seal(acknowledged: acknowledged.ends(of: file.topic, partitions: partitions))
        case .lines: try await artists.shards.seal()
        }
    }

    /// The stage whose partitions `file` holds.
    private func progress(of file: StateFile) -> StageProgress {
        switch file {
        case .pages: pages.progress
        case .works: works.progress
        case .lines: artists.progress
        }
    }
}
