import Dispatch
import Foundation
import KafkaClient
import Synchronization

extension IndexStateStore {
    /// A shard file whose inputs changed since the last read.
    public struct ShardChange: Sendable {
        public var file: String
        /// Nil when the file is new.
        public var before: IndexInputs?
        /// Nil when the file is gone.
        public var after: IndexInputs?
    }

    /// The shard files read by ``readChanges()``: those that changed, and every file's inputs now.
    public struct ShardReading: Sendable {
        public var changes: [ShardChange]
        /// Every shard file's inputs, by file name.
        public var shards: [String: IndexInputs]
    }

    /// Reads the shard files every instance has written, decoding only those that changed since
    /// the last call (known by inode, size and modification time). A file that does not decode
    /// is quarantined (see ``quarantine(_:)``) and left out, so one bad file cannot stop every
    /// instance's index.
    public func readChanges() throws -> ShardReading {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        // Taken before reading: a file replaced meanwhile is decoded again next time.
        let identities = names.map { FileIdentity(path: directory.appendingPathComponent($0).path) }
        let cached = lastRead.withLock { $0 }
        let shared = decodedFiles.withLock { $0 }
        var fromShared: [Int: IndexInputs] = [:]
        let changed = names.indices.filter { number in
            guard let identity = identities[number] else { return true }
            if let entry = cached[names[number]], entry.identity == identity { return false }
            if let entry = shared[names[number]], entry.identity == identity {
                fromShared[number] = entry.inputs
                return false
            }
            return true
        }
        // Decoding is most of a full build's reading: files decode side by side, one per core.
        // This runs on the blocking pool already; the threads are Dispatch's, not Swift's pool.
        let decoded = Mutex<[Int: IndexInputs]>([:])
        DispatchQueue.concurrentPerform(iterations: changed.count) { position in
            let number = changed[position]
            // Gone meanwhile: its owner replaced it, or another instance quarantined it.
            guard let identity = identities[number], case .read(let shard) = readShard(names[number]) else { return }
            let inputs = keepDecoded(names[number], identity, shard.inputs)
            decoded.withLock { $0[number] = inputs }
        }
        let fresh = decoded.withLock { $0 }.merging(fromShared) { decoded, _ in decoded }
        var kept: [String: (identity: FileIdentity, inputs: IndexInputs)] = [:]
        var changes: [ShardChange] = []
        for (number, name) in names.enumerated() {
            let before = cached[name]
            if let identity = identities[number], let inputs = fresh[number] {
                kept[name] = (identity, inputs)
                if before?.inputs != inputs {
                    changes.append(ShardChange(file: name, before: before?.inputs, after: inputs))
                }
            } else if let before, before.identity == identities[number] {
                kept[name] = before
            } else if let before {
                // Gone between listing and reading, or quarantined.
                changes.append(ShardChange(file: name, before: before.inputs, after: nil))
            }
        }
        for (name, entry) in cached where kept[name] == nil && !changes.contains(where: { $0.file == name }) {
            changes.append(ShardChange(file: name, before: entry.inputs, after: nil))
        }
        lastRead.withLock { $0 = kept }
        let present = Set(names)
        decodedFiles.withLock { $0 = $0.filter { present.contains($0.key) } }
        return ShardReading(changes: changes.sorted { $0.file < $1.file }, shards: kept.mapValues(\.inputs))
    }

    /// Everything every instance has written: the merge of all shard files.
    public func inputsOnDisk() throws -> IndexInputs {
        let shards = try readChanges().shards
        var inputs = IndexInputs()
        for name in shards.keys.sorted() { inputs.merge(shards[name]!) }
        return inputs
    }

    /// Every shard file's identity: what changes when any instance writes one.
    func shardSignature() -> [String: FileIdentity?] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var signature: [String: FileIdentity?] = [:]
        for name in names where name.hasSuffix(".json") {
            signature[name] = FileIdentity(path: directory.appendingPathComponent(name).path)
        }
        return signature
    }

    /// Keeps what was decoded of a file for the next reader, unless another reader decoded the
    /// same file first: then theirs is returned, and this copy dropped.
    func keepDecoded(_ name: String, _ identity: FileIdentity, _ inputs: IndexInputs) -> IndexInputs {
        decodedFiles.withLock { files in
            if let entry = files[name], entry.identity == identity { return entry.inputs }
            files[name] = (identity, inputs)
            return inputs
        }
    }

    /// A partition's state as on disk, and whether all of it could be read. The earlier form's
    /// whole-partition file is read first: parts written since are newer and replace its own.
    func load(_ topicPartition: KafkaTopicPartition) -> (state: Owned, complete: Bool) {
        let (topic, partition) = (topicPartition.topic, topicPartition.partition)
        var state = Owned(topic: topic, partition: partition)
        var complete = true
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        if names.contains(IndexShard.wholeFileName(topic, partition)) {
            switch readShard(IndexShard.wholeFileName(topic, partition)) {
            case .read(let whole):
                state.offset = whole.offset
                state.parts = Self.split(whole.inputs)
                state.dirtyParts = Set(state.parts.keys)
                state.offsetDirty = true
                state.wholeFile = true
            case .unreadable: complete = false
            case .gone: break
            }
        }
        let shared = decodedFiles.withLock { $0 }
        for name in names {
            guard let part = IndexShard.part(ofFile: name, topic, partition) else { continue }
            // What the publisher decoded already is taken as it is: no second decode, no second copy.
            let identity = FileIdentity(path: directory.appendingPathComponent(name).path)
            if let identity, let entry = shared[name], entry.identity == identity {
                state.parts[part] = entry.inputs
                state.dirtyParts.remove(part)
                continue
            }
            switch readShard(name) {
            case .read(let shard):
                state.parts[part] = identity.map { keepDecoded(name, $0, shard.inputs) } ?? shard.inputs
                state.dirtyParts.remove(part)
            case .unreadable: complete = false
            case .gone: break
            }
        }
        let offsetName = IndexShard.Offset.fileName(topic, partition)
        if names.contains(offsetName), let data = try? Data(contentsOf: directory.appendingPathComponent(offsetName)) {
            if let offset = try? JSONDecoder().decode(IndexShard.Offset.self, from: data) {
                state.offset = offset.offset
            } else {
                complete = false
                quarantine(directory.appendingPathComponent(offsetName))
            }
        }
        return (state, complete)
    }

    /// The inputs cut into parts by page id.
    static func split(_ inputs: IndexInputs) -> [Int: IndexInputs] {
        let parts = Dictionary(grouping: inputs.pageIds, by: IndexShard.part(of:))
        return parts.mapValues { pageIds in
            let pageIds = Set(pageIds)
            return inputs.filter { pageIds.contains($0) }
        }
    }

    enum ShardRead {
        case read(IndexShard)
        /// Replaced or removed between listing and reading.
        case gone
        /// Quarantined.
        case unreadable
    }

    /// Decodes one shard file; one that does not decode is quarantined.
    func readShard(_ name: String) -> ShardRead {
        let url = directory.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url) else { return .gone }
        do {
            return .read(try JSONDecoder().decode(IndexShard.self, from: data))
        } catch {
            quarantine(url)
            return .unreadable
        }
    }

    /// Moves a state file that does not decode to `quarantine/` beside the shards, for a person
    /// to look at. State files are written whole, so it was not written by artpipe; its
    /// partition is read again from the start by its owner, which rebuilds the state from Kafka.
    func quarantine(_ url: URL) {
        let folder = directory.appendingPathComponent("quarantine")
        let stamp = "\(Int(Date().timeIntervalSince1970))-\(UUID().uuidString.prefix(8))"
        let target = folder.appendingPathComponent("\(url.lastPathComponent).\(stamp)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: url, to: target)
            logger.error(
                "unreadable index state quarantined; its partition is read again from the start",
                metadata: ["file": "\(url.path)", "quarantined.to": "\(target.path)"])
        } catch {
            // Another instance moved it first, or the folder cannot be written: left out either way.
            logger.error("unreadable index state left out", metadata: ["file": "\(url.path)", "error": "\(error)"])
        }
    }
}
