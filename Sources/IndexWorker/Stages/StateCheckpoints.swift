import ArtpipeSupport
import EmbeddedStore
import Foundation
import KafkaClient
import Logging
import NIOPosix
import PipelineContract
import StreamTasks

/// The checkpoints of a copy's three store files, each of which a clean stop leaves beside its
/// file (``StoreCheckpoint``): taken from the state folder at start and checked against the
/// cluster, so that the stores keep what they vouch for; a file whose checkpoint is missing or
/// refused is made afresh, and its partitions restored in full, with a line in the log saying why.
package struct StateCheckpoints: Sendable {
    private var checkpoints: [StateFile: StoreCheckpoint] = [:]

    package init() {}

    /// The checkpoint kept for `file`; nil: the file is made afresh.
    package subscript(file: StateFile) -> StoreCheckpoint? {
        get { checkpoints[file] }
        set { checkpoints[file] = newValue }
    }

    /// No file is kept.
    package var isEmpty: Bool { checkpoints.isEmpty }

    /// Takes the checkpoints from `folder` (each removed as it is read: the files are about to be
    /// written) and keeps those the cluster's topics bear out for `partitions` partitions
    /// (``StoreCheckpoint/refusal(file:bounds:partitionCount:now:)``), without the partitions
    /// too old (``StoreCheckpoint/leavingOut(olderThan:)``) and, for the artists' lines, those
    /// whose group was moved back below them since (a replay of `artpipe-index-artists`: its
    /// input is its changelog, read up to the committed offset). The files' calls run on
    /// `threadPool`.
    package static func take(
        from folder: StateFolder, partitions: Int, kafka: KafkaClientConfiguration, timeout: Duration,
        rendering: ShardRendering, threadPool: NIOThreadPool, logger: Logger
    ) async throws -> StateCheckpoints {
        let found = try await threadPool.runIfActive {
            StateFile.allCases.compactMap { file -> (file: StateFile, taken: Result<StoreCheckpoint, any Error>)? in
                let path = folder.url.appendingPathComponent(file.name).path
                do {
                    return try StoreCheckpoint.take(at: StoreCheckpoint.location(of: path)).map { (file, .success($0)) }
                } catch {
                    return (file, .failure(error))
                }
            }
        }
        guard !found.isEmpty else {
            logger.info("no checkpoint in the state folder: every partition is restored from its changelog")
            return StateCheckpoints()
        }
        guard
            let bounds = await StateFile.changelogBounds(
                kafka: kafka, timeout: timeout, consequence: "the state folder's files are made afresh",
                logger: logger)
        else { return StateCheckpoints() }
        var kept = StateCheckpoints()
        let now = Date()
        for (file, taken) in found {
            let (name, topic) = (file.name, file.topic)
            let path = folder.url.appendingPathComponent(name).path
            let refusal: String?
            switch taken {
            case .failure(let error):
                refusal = "its checkpoint cannot be read (\(error))"
            case .success(let checkpoint) where checkpoint.topic != topic:
                refusal = "its checkpoint is of \(checkpoint.topic), not \(topic)"
            case .success(var checkpoint):
                // Dated as they were: a mark carried to the next checkpoint keeps its age. The
                // partitions too old go first: what their offsets say no longer counts.
                for (partition, mark) in checkpoint.partitions where mark.asOf == nil {
                    checkpoint.partitions[partition]?.asOf = checkpoint.written
                }
                let (fresh, stale) = checkpoint.leavingOut(olderThan: now)
                checkpoint = fresh
                let size = try await threadPool.runIfActive { try? SQLiteDatabase.size(of: path) }
                refusal = checkpoint.refusal(file: size, bounds: bounds, partitionCount: partitions, now: now)
                guard refusal == nil else { break }
                if !stale.isEmpty {
                    logger.warning(
                        "partitions of a kept state file restored in full: their rows are over \(Int(StoreCheckpoint.maximumAge / 3600)) hours old",
                        metadata: ["state.file": "\(name)", "kafka.partitions": "\(stale)"])
                }
                if file == .lines {
                    // A shard's mark without its tally (a checkpoint of an earlier version) cannot
                    // rebuild its counts without reading every line: restored in full.
                    let untallied = checkpoint.partitions.filter { $0.value.tally == nil }.keys.sorted()
                    for partition in untallied { checkpoint.partitions[partition] = nil }
                    if !untallied.isEmpty {
                        logger.warning(
                            "partitions of a kept state file restored in full: their marks carry no tally",
                            metadata: ["state.file": "\(name)", "kafka.partitions": "\(untallied)"])
                    }
                    // What a shard's summary says was published is this rendering's: another
                    // build, or another site address, renders each shard again.
                    let (sameRendering, rendered) = checkpoint.keepingPublished(by: rendering.identity)
                    checkpoint = sameRendering
                    if !rendered.isEmpty {
                        logger.info(
                            rendering.build == nil
                                ? "shards kept from a clean stop are rendered whole again: this build's id is unknown"
                                : "shards kept from a clean stop are rendered whole again: another build, or another --site-url, wrote their checkpoint",
                            metadata: ["state.file": "\(name)", "kafka.partitions": "\(rendered)"])
                    }
                    let (kept, moved) = checkpoint.leavingOut(
                        pastFloors: await committed(kafka: kafka, partitions: partitions, logger: logger))
                    checkpoint = kept
                    if !moved.isEmpty {
                        logger.warning(
                            "partitions of a kept state file restored in full: their group's offset was moved back below them (a replay)",
                            metadata: ["state.file": "\(name)", "kafka.partitions": "\(moved)"])
                    }
                }
                kept[file] = checkpoint
            }
            if let refusal {
                logger.warning(
                    "state file made afresh, its partitions restored in full: \(refusal)",
                    metadata: ["state.file": "\(name)"])
            } else {
                logger.info(
                    "state file kept from a clean stop: its partitions are read from their checkpoint on",
                    metadata: [
                        "state.file": "\(name)", "kafka.topic": "\(topic)",
                        "kafka.partitions": "\(kept[file]?.partitions.keys.sorted() ?? [])",
                    ])
            }
        }
        return kept
    }

    /// The artists group's committed offset on each partition of its input, nil where it has
    /// none (or the brokers do not say): such a partition is restored in full.
    private static func committed(kafka: KafkaClientConfiguration, partitions: Int, logger: Logger) async -> [Int64?] {
        let rows: [KafkaOffsetResetPlan.Row]
        do {
            rows = try await KafkaGroupOffsets(configuration: kafka, logger: logger).positions(
                group: IndexStages.artistsGroup, topics: [ArtpipeTopic.indexArtists])
        } catch {
            logger.warning(
                "the artists group's offsets cannot be read: its shards are restored in full",
                metadata: ["kafka.group": "\(IndexStages.artistsGroup)", "error": "\(error)"])
            rows = []
        }
        var floors = [Int64?](repeating: nil, count: partitions)
        for row in rows where Int(row.topicPartition.partition) < partitions {
            floors[Int(row.topicPartition.partition)] = row.committed
        }
        return floors
    }
}
