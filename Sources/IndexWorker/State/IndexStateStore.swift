import ArtpipeSupport
import Dispatch
import Foundation
import KafkaClient
import Logging
import Synchronization

/// The index's state on disk: one shard file per input partition under `DIR/.index-state/`,
/// each holding that partition's latest inputs and the offset they reach.
///
/// Offsets live in the shards, not only in Kafka: on assignment the consumer starts after the
/// shard's offset, so whatever was applied but not yet written is read again, and applying
/// it again changes nothing. Kafka's committed offsets only serve the lag metrics.
public final class IndexStateStore: Sendable {
    private struct Loaded {
        var shard: IndexShard
        var dirty: Bool
        /// Bumped by every apply, so a flush knows whether what it wrote is still the latest.
        var version = 0
    }

    public let directory: URL
    private let shards = Mutex<[KafkaTopicPartition: Loaded]>([:])
    /// Held while shard files are written, one writer at a time; the shards' own lock, which
    /// handlers need, is never held across a write and its fsync.
    private let writing = Mutex<Void>(())
    /// Each shard file's inputs as last decoded, with the file they came from.
    private let decodedShards = Mutex<[String: (identity: FileIdentity, inputs: IndexInputs)]>([:])
    private let logger: Logger

    public init(outputDirectory: URL, logger: Logger) throws {
        directory = outputDirectory.appendingPathComponent(".index-state")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.logger = logger
    }

    /// Removes what writes killed mid-way left beside the shards and the published files.
    /// Returns the count.
    @discardableResult
    public func removeStaleTemporaries() -> Int {
        let output = directory.deletingLastPathComponent()
        return [
            directory, output, output.appendingPathComponent(IndexLayout.worksFolder),
            output.appendingPathComponent(IndexLayout.galleryFolder),
        ]
        .map { AtomicFile.removeStaleTemporaries(in: $0) }.reduce(0, +)
    }

    /// Where to start reading a newly assigned partition: after its shard's offset, or at the
    /// beginning when nothing of it was ever written (Kafka's committed offset may be ahead of
    /// what reached disk). Called on the consumer's poll thread, which also loads the shard, so
    /// handlers never read files on the cooperative pool.
    ///
    /// A committed offset below the shard's is a replay (or a commit lost in a crash): reading
    /// from there applies messages again, which changes nothing but lets a replay take effect.
    public func startOffset(for topicPartition: KafkaTopicPartition, committed: Int64? = nil) -> Int64 {
        let shard =
            readShard(topicPartition) ?? IndexShard(topic: topicPartition.topic, partition: topicPartition.partition)
        shards.withLock { $0[topicPartition] = Loaded(shard: shard, dirty: false) }
        guard let next = shard.offset.map({ $0 + 1 }) else { return KafkaConsumerConfiguration.beginningOffset }
        return min(next, committed ?? next)
    }

    /// Applies a message's effect to its partition's shard.
    public func apply(_ message: KafkaConsumerMessage, _ update: (inout IndexInputs) -> Void) {
        let topicPartition = KafkaTopicPartition(topic: message.topic, partition: message.partition)
        shards.withLock { shards in
            // Loaded at assignment; reading here is only a fallback, never an empty shard that could
            // overwrite one on disk.
            var loaded =
                shards[topicPartition]
                ?? Loaded(
                    shard: readShard(topicPartition) ?? IndexShard(topic: message.topic, partition: message.partition),
                    dirty: false)
            update(&loaded.shard.inputs)
            // The last applied, not the highest seen: a partition is applied in order, so the
            // shard holds exactly what precedes it. During a re-read that is behind the highest,
            // and a restart reads the newer messages again instead of skipping them.
            loaded.shard.offset = message.offset
            loaded.dirty = true
            loaded.version += 1
            shards[topicPartition] = loaded
        }
    }

    /// Writes the shards of revoked partitions, then forgets them: the next owner starts from
    /// what is on disk, and no stale copy of ours can overwrite its newer one later.
    ///
    /// Lost partitions (not handed over: this member's session ended) are forgotten without
    /// writing: their new owner may have written a newer shard already, and what this member
    /// applied since its last write is read again by that owner from the shard's offset.
    public func revoke(_ topicPartitions: [KafkaTopicPartition], lost: Bool = false) {
        writing.withLock { _ in
            let revoked = shards.withLock { shards in topicPartitions.compactMap { shards.removeValue(forKey: $0) } }
            if lost {
                if revoked.contains(where: \.dirty) {
                    logger.warning(
                        "partitions lost: their unwritten changes are left to the new owner",
                        metadata: ["kafka.partitions": "\(topicPartitions.map(\.description))"])
                }
                return
            }
            for loaded in revoked where loaded.dirty {
                do { try write(loaded.shard) } catch {
                    logger.error("cannot write index shard", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// Writes every changed shard. Returns whether any was written.
    public func flush() throws -> Bool {
        try writing.withLock { _ in
            // Copies under the lock, writes outside it: handlers go on applying meanwhile.
            // A shard whose file went missing (quarantined by an instance that could not read it)
            // is written again from what this owner holds.
            let dirty = shards.withLock { shards in
                shards.filter { $0.value.dirty || !fileExists($0.value.shard) }
                    .map { ($0.key, $0.value.shard, $0.value.version) }
            }
            for (topicPartition, shard, version) in dirty {
                try write(shard)
                shards.withLock { shards in
                    if shards[topicPartition]?.version == version { shards[topicPartition]?.dirty = false }
                }
            }
            return !dirty.isEmpty
        }
    }

    /// Size and modification time of every shard file: what changes when any instance writes one.
    public func shardSignature() -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var signature: [String: String] = [:]
        for name in names where name.hasSuffix(".json") {
            signature[name] = Self.fileSignature(directory.appendingPathComponent(name)) ?? "-1@0"
        }
        return signature
    }

    /// Size and modification time of a file: what changes when anyone replaces it.
    static func fileSignature(_ url: URL) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size)@\(modified)"
    }

    /// A file as `stat` sees it. Shards are replaced by rename, so a new version is a new inode
    /// even when its size and modification time match the old one's.
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec

        static func == (a: Self, b: Self) -> Bool {
            (a.device, a.inode, a.size, a.modified.tv_sec, a.modified.tv_nsec)
                == (b.device, b.inode, b.size, b.modified.tv_sec, b.modified.tv_nsec)
        }

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = status.st_mtim
        }
    }

    /// Everything every instance has written: the union of all shard files. A file that does
    /// not decode is quarantined (see ``quarantine(_:)``) and left out, so one bad file cannot
    /// stop every instance's index.
    ///
    /// Only shard files that changed since the last call are decoded; the others come from
    /// what that call decoded.
    public func inputsOnDisk() throws -> IndexInputs {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
            .sorted()
        // Taken before reading: a file replaced meanwhile is decoded again next time.
        let identities = names.map { FileIdentity(path: directory.appendingPathComponent($0).path) }
        let cached = decodedShards.withLock { $0 }
        let changed = names.indices.filter { number in
            guard let identity = identities[number], let entry = cached[names[number]] else { return true }
            return entry.identity != identity
        }
        let changedSet = Set(changed)
        // Decoding is most of a full build's time: shards decode side by side, one per core.
        // This runs on the blocking pool already; the threads are Dispatch's, not Swift's pool.
        let decoded = Mutex<[Int: IndexInputs]>([:])
        DispatchQueue.concurrentPerform(iterations: changed.count) { position in
            let number = changed[position]
            let url = directory.appendingPathComponent(names[number])
            // Gone meanwhile: its owner replaced it, or another instance quarantined it.
            guard let data = try? Data(contentsOf: url) else { return }
            do {
                let shard = try JSONDecoder().decode(IndexShard.self, from: data)
                decoded.withLock { $0[number] = shard.inputs }
            } catch {
                quarantine(url)
            }
        }
        let fresh = decoded.withLock { $0 }
        var inputs = IndexInputs()
        var kept: [String: (identity: FileIdentity, inputs: IndexInputs)] = [:]
        for (number, name) in names.enumerated() {
            let shardInputs: IndexInputs
            if let decodedNow = fresh[number] {
                shardInputs = decodedNow
            } else if !changedSet.contains(number), let entry = cached[name] {
                shardInputs = entry.inputs
            } else {
                continue
            }
            if let identity = identities[number] { kept[name] = (identity, shardInputs) }
            inputs.merge(shardInputs)
        }
        decodedShards.withLock { $0 = kept }
        return inputs
    }

    private func readShard(_ topicPartition: KafkaTopicPartition) -> IndexShard? {
        let url = directory.appendingPathComponent(
            IndexShard(topic: topicPartition.topic, partition: topicPartition.partition).fileName)
        guard let data = try? Data(contentsOf: url) else { return nil }
        do {
            return try JSONDecoder().decode(IndexShard.self, from: data)
        } catch {
            quarantine(url)
            return nil
        }
    }

    /// Moves a shard file that does not decode to `quarantine/` beside the shards, for a person
    /// to look at. Shards are written whole, so it was not written by artpipe; its partition is
    /// read again from the start by its owner, which rebuilds the shard from Kafka.
    private func quarantine(_ url: URL) {
        let folder = directory.appendingPathComponent("quarantine")
        let stamp = "\(Int(Date().timeIntervalSince1970))-\(UUID().uuidString.prefix(8))"
        let target = folder.appendingPathComponent("\(url.deletingPathExtension().lastPathComponent).\(stamp).json")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: url, to: target)
            logger.error(
                "unreadable index shard quarantined; its partition is read again from the start",
                metadata: ["file": "\(url.path)", "quarantined.to": "\(target.path)"])
        } catch {
            // Another instance moved it first, or the folder cannot be written: left out either way.
            logger.error("unreadable index shard left out", metadata: ["file": "\(url.path)", "error": "\(error)"])
        }
    }

    private func fileExists(_ shard: IndexShard) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(shard.fileName).path)
    }

    private func write(_ shard: IndexShard) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(shard), to: directory.appendingPathComponent(shard.fileName))
    }
}
