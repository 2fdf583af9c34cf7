import ArtpipeSupport
import Foundation
import KafkaClient
import Logging
import Synchronization

/// The index's state on disk, under `DIR/.index-state/`. Each input partition's latest inputs
/// are cut by page id into ``IndexShard/partCount`` part files, so applying a page rewrites one
/// small file; `<topic>-<partition>.offset` says how far they reach and is written after them.
///
/// Offsets live beside the shards, not only in Kafka: on assignment the consumer starts after
/// the partition's offset, so whatever was applied but not yet written is read again, and
/// applying it again changes nothing. Kafka's committed offsets only serve the lag metrics.
package final class IndexStateStore: Sendable {
    /// A partition this instance owns: its inputs by part, and what of them is not yet on disk.
    struct Owned: Sendable {
        var parts: [Int: IndexInputs] = [:]
        var offset: Int64?
        var dirtyParts: Set<Int> = []
        var offsetDirty = false
        /// A whole-partition file of the earlier form is on disk: removed once the parts are.
        var wholeFile = false
        /// Messages the state needs that the partition no longer holds: nothing of it is written.
        var missingHistory: MissingHistory?
        /// This instance's claim on the partition (``PartitionClaim``); its state is written only
        /// while the claim is the latest.
        var claim: PartitionClaim?
        /// Another instance claimed it since: nothing more of it is written here.
        var superseded = false
    }

    /// What one flush writes of a partition, copied under the lock.
    struct Write: Sendable {
        var key: KafkaTopicPartition
        var claim: PartitionClaim?
        var parts: [(number: Int, inputs: IndexInputs)]
        var offset: Int64?
        var removeWholeFile: Bool
    }

    package let directory: URL
    let owned = Mutex<[KafkaTopicPartition: Owned]>([:])
    /// Held while state files are written, one writer at a time; the partitions' own lock, which
    /// handlers need, is never held across a write and its fsync.
    private let writing = Mutex<Void>(())
    /// Each shard file's inputs as the last ``readChanges()`` saw them: what a change is told from.
    /// Only the publisher reads changes; ``inputsOnDisk()`` leaves this as it is.
    let lastRead = Mutex<[String: (identity: FileIdentity, inputs: IndexInputs)]>([:])
    /// Each shard file's inputs as this instance last decoded or wrote them, with the file's
    /// identity: loading a partition and reading for a publish both take them from here, so a
    /// file is decoded once and its inputs held once.
    let decodedFiles = Mutex<[String: (identity: FileIdentity, inputs: IndexInputs)]>([:])
    /// Makers' names, held once for every file this instance decodes.
    let internedStrings = InternedStrings()
    let logger: Logger

    /// Go on when a partition no longer holds messages the state needs (`--accept-missing-history`).
    let acceptsMissingHistory: Bool
    /// Names this instance's ``PartitionClaim``s.
    let instance = UUID().uuidString

    package static let folderName = ".index-state"

    /// The state in `directory` (`--state`): on the index worker's own disk, whatever the
    /// published files go to.
    package init(stateDirectory: URL, acceptsMissingHistory: Bool = false, logger: Logger) throws {
        directory = stateDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.acceptsMissingHistory = acceptsMissingHistory
        self.logger = logger
    }

    /// The state in `DIR/.index-state`, beside the files published in `DIR`.
    package convenience init(outputDirectory: URL, acceptsMissingHistory: Bool = false, logger: Logger) throws {
        try self.init(
            stateDirectory: outputDirectory.appendingPathComponent(Self.folderName),
            acceptsMissingHistory: acceptsMissingHistory, logger: logger)
    }

    /// Removes what writes killed mid-way left beside the shards, and beside the published
    /// files when they are in `publishedIn`. Returns the count.
    @discardableResult
    package func removeStaleTemporaries(publishedIn output: URL?) -> Int {
        var folders = [directory]
        if let output {
            folders += [
                output, output.appendingPathComponent(IndexLayout.worksFolder),
                output.appendingPathComponent(IndexLayout.galleryFolder),
            ]
        }
        return
            folders
            .map { AtomicFile.removeStaleTemporaries(in: $0) }.reduce(0, +)
    }

    /// Where to start reading a newly assigned partition: after its offset, or at the beginning
    /// when nothing of it was ever written (Kafka's committed offset may be ahead of what reached
    /// disk) or a part of it does not decode. Called on the consumer's poll thread, which also
    /// loads the parts, so handlers never read files on the cooperative pool.
    ///
    /// A committed offset below ours is a replay (or a commit lost in a crash): reading from
    /// there applies messages again, which changes nothing but lets a replay take effect.
    ///
    /// `earliest`, the oldest offset the partition still holds, past what the state needs means
    /// messages were deleted before the index applied them: see ``MissingHistory``.
    package func startOffset(for topicPartition: KafkaTopicPartition, committed: Int64? = nil, earliest: Int64? = nil)
        -> Int64
    {
        // Claimed before loading: an old owner's last write lands before the claim, and is loaded.
        var claim: PartitionClaim?
        var (state, complete) =
            (try? PartitionClaim.locked(topicPartition, in: directory) { current, replace in
                let mine = PartitionClaim(instance: instance, number: (current?.number ?? 0) + 1)
                try replace(mine)
                claim = mine
                return load(topicPartition)
            }) ?? load(topicPartition)
        state.claim = claim
        let next = complete ? state.offset.map { $0 + 1 } : nil
        state.missingHistory = checkHistory(topicPartition, needed: next ?? 0, earliest: earliest)
        owned.withLock { [state] in $0[topicPartition] = state }
        guard let next else { return KafkaConsumerConfiguration.beginningOffset }
        return min(next, committed ?? next)
    }

    /// Applies a message's effect to its partition's state: `update` changes the inputs of
    /// `pageId`'s part; a message of no page (`nil`) only moves the offset.
    package func apply(_ message: KafkaConsumerMessage, pageId: String?, _ update: (inout IndexInputs) -> Void) {
        let topicPartition = KafkaTopicPartition(topic: message.topic, partition: message.partition)
        owned.withLock { owned in
            // Loaded and claimed at assignment. A message of a partition not (or no longer) ours,
            // such as one a handler stuck past the drain timeout applies after the revoke, is
            // applied to a state that is never written: it has no claim to write under.
            if owned[topicPartition] == nil {
                var state = load(topicPartition).state
                state.superseded = true
                owned[topicPartition] = state
            }
            if let pageId {
                let part = IndexShard.part(of: pageId)
                update(&owned[topicPartition]!.parts[part, default: IndexInputs()])
                owned[topicPartition]!.dirtyParts.insert(part)
            }
            // The last applied, not the highest seen: a partition is applied in order, so the
            // state holds exactly what precedes it. During a re-read that is behind the highest,
            // and a restart reads the newer messages again instead of skipping them.
            owned[topicPartition]!.offset = message.offset
            owned[topicPartition]!.offsetDirty = true
        }
    }

    /// Writes the state of revoked partitions, then forgets them: the next owner starts from
    /// what is on disk, and no stale copy of ours can overwrite its newer one later.
    ///
    /// Lost partitions (not handed over: this member's session ended) are forgotten without
    /// writing: their new owner may have written newer parts already, and what this member
    /// applied since its last write is read again by that owner from the offset on disk.
    package func revoke(_ topicPartitions: [KafkaTopicPartition], lost: Bool = false) {
        writing.withLock { _ in
            let present = filesPresent()
            let writes = owned.withLock { owned in
                topicPartitions.compactMap { key -> Write? in
                    guard var state = owned.removeValue(forKey: key) else { return nil }
                    // The next owner finds the gap again, and records it again.
                    if state.missingHistory != nil { forgetMissingHistory(key) }
                    return Self.takeWrite(key, &state, present: present)
                }
            }
            if lost {
                if !writes.isEmpty {
                    logger.warning(
                        "partitions lost: their unwritten changes are left to the new owner",
                        metadata: ["kafka.partitions": "\(topicPartitions.map(\.description))"])
                }
                return
            }
            for write in writes {
                do { _ = try performClaimed(write) } catch {
                    logger.error("cannot write index state", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// Writes every changed part, then its partition's offset. Returns whether anything was written.
    package func flush() throws -> Bool {
        try writing.withLock { _ in
            // A part whose file went missing (quarantined by an instance that could not read it)
            // is written again from what this owner holds.
            let present = filesPresent()
            // Taken under the lock and marked clean there; written outside it, so handlers go on
            // applying meanwhile, and what they apply marks its part dirty again.
            let writes = owned.withLock { owned in
                owned.keys.compactMap { key in Self.takeWrite(key, &owned[key]!, present: present) }
            }
            var written = false
            for (number, write) in writes.enumerated() {
                do {
                    written = try performClaimed(write) || written
                } catch {
                    owned.withLock { owned in
                        for write in writes[number...] where owned[write.key] != nil {
                            owned[write.key]!.dirtyParts.formUnion(write.parts.map(\.number))
                            owned[write.key]!.offsetDirty = true
                        }
                    }
                    throw error
                }
            }
            return written
        }
    }

    private func filesPresent() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }

    /// What of `state` is to be written, marked written.
    private static func takeWrite(_ key: KafkaTopicPartition, _ state: inout Owned, present: Set<String>) -> Write? {
        let missing = state.parts.keys.filter {
            !present.contains(IndexShard.partFileName(key.topic, key.partition, $0))
        }
        let parts = state.dirtyParts.union(missing).sorted()
        let offsetMissing =
            state.offset != nil && !present.contains(IndexShard.Offset.fileName(key.topic, key.partition))
        // Written, its offset would claim the lost messages were applied, and the loss be forgotten.
        guard state.missingHistory == nil, !state.superseded else { return nil }
        guard !parts.isEmpty || state.offsetDirty || offsetMissing || state.wholeFile else { return nil }
        let write = Write(
            key: key, claim: state.claim,
            parts: parts.map { ($0, state.parts[$0] ?? IndexInputs()) }, offset: state.offset,
            removeWholeFile: state.wholeFile)
        state.dirtyParts = []
        state.offsetDirty = false
        state.wholeFile = false
        return write
    }

    /// Writes `write` while its claim is the latest, under the claim's lock. Returns false, and
    /// marks the partition superseded, when another instance has claimed it since.
    private func performClaimed(_ write: Write) throws -> Bool {
        guard let claim = write.claim else {
            try perform(write)
            return true
        }
        let latest = try PartitionClaim.locked(write.key, in: directory) { current, _ in
            guard current == claim else { return false }
            try perform(write)
            return true
        }
        if !latest {
            owned.withLock { owned in
                if owned[write.key]?.claim == claim { owned[write.key]?.superseded = true }
            }
            logger.warning(
                "partition claimed by another index instance: its state is left to it",
                metadata: ["kafka.partition": "\(write.key)"])
        }
        return latest
    }

    /// Parts first, then the offset that claims them, then the earlier form's file they replace.
    private func perform(_ write: Write) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for (number, inputs) in write.parts {
            let shard = IndexShard(topic: write.key.topic, partition: write.key.partition, part: number, inputs: inputs)
            let status = try AtomicFile.write(
                try encoder.encode(shard), to: directory.appendingPathComponent(shard.fileName))
            decodedFiles.withLock { $0[shard.fileName] = (FileIdentity(status), inputs) }
        }
        if let offset = write.offset {
            try AtomicFile.write(
                try encoder.encode(IndexShard.Offset(offset: offset)),
                to: directory.appendingPathComponent(IndexShard.Offset.fileName(write.key.topic, write.key.partition)))
        }
        if write.removeWholeFile {
            let url = directory.appendingPathComponent(IndexShard.wholeFileName(write.key.topic, write.key.partition))
            if unlink(url.path) != 0 && errno != ENOENT {
                throw FileWriteError(path: url.path, reason: String(cString: strerror(errno)))
            }
        }
    }
}
