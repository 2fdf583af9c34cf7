import Dispatch
import Foundation
import KafkaClient
import Synchronization

extension IndexStateStore {
    /// A shard file whose inputs changed since the last read.
    package struct ShardChange: Sendable {
        var file: String
        /// Nil when the file is new.
        var before: IndexInputs?
        /// Nil when the file is gone.
        var after: IndexInputs?
    }

    /// The shard files read by ``readChanges()``: those that changed, and every file's inputs now.
    package struct ShardReading: Sendable {
        var changes: [ShardChange]
        /// Every shard file's inputs, by file name.
        var shards: [String: IndexInputs]
        /// Every shard file listed, readable or not, as it was before reading: what
        /// ``IndexStateStore/shardSignature()`` gives while no file changes.
        var listed: [String: FileIdentity]
    }

    /// Reads the shard files every instance has written, and tells which changed since the last
    /// call. Only files not decoded before are decoded (see ``filesOnDisk()``).
    func readChanges() throws -> ShardReading {
        let (current, listed) = try filesOnDisk()
        let before = lastRead.withLock { $0 }
        var changes: [ShardChange] = []
        for (name, entry) in current {
            guard let previous = before[name] else {
                changes.append(ShardChange(file: name, before: nil, after: entry.inputs))
                continue
            }
            if previous.identity != entry.identity && previous.inputs != entry.inputs {
                changes.append(ShardChange(file: name, before: previous.inputs, after: entry.inputs))
            }
        }
        for (name, previous) in before where current[name] == nil {
            changes.append(ShardChange(file: name, before: previous.inputs, after: nil))
        }
        lastRead.withLock { $0 = current }
        return ShardReading(
            changes: changes.sorted { $0.file < $1.file }, shards: current.mapValues(\.inputs), listed: listed)
    }

    /// Every shard file's inputs now, with the file's identity. A file is decoded only when this
    /// instance has not decoded or written it as it is (known by inode, size and modification
    /// time). A file that does not decode is quarantined (see ``quarantine(_:)``) and left out,
    /// so one bad file cannot stop every instance's index.
    func filesOnDisk() throws -> (
        files: [String: (identity: FileIdentity, inputs: IndexInputs)], listed: [String: FileIdentity]
    ) {
        // Taken before reading: a file replaced meanwhile is decoded again next time.
        let listed = try listShardFiles()
        let known = decodedFiles.withLock { $0 }
        var files: [String: (identity: FileIdentity, inputs: IndexInputs)] = [:]
        for (name, identity) in listed {
            if let entry = known[name], entry.identity == identity { files[name] = entry }
        }
        let toDecode = listed.filter { files[$0.key] == nil }.map { (name: $0.key, identity: $0.value) }
        // Decoding is most of a full build's reading: files decode side by side, one per core.
        // This runs on the blocking pool already; the threads are Dispatch's, not Swift's pool.
        let decoded = Mutex<[String: (identity: FileIdentity, inputs: IndexInputs)]>([:])
        DispatchQueue.concurrentPerform(iterations: toDecode.count) { position in
            let (name, identity) = toDecode[position]
            // Gone meanwhile: its owner replaced it, or another instance quarantined it.
            guard case .read(let shard) = readShard(name) else { return }
            let inputs = keepDecoded(name, identity, shard.inputs)
            decoded.withLock { $0[name] = (identity, inputs) }
        }
        files.merge(decoded.withLock { $0 }) { _, new in new }
        decodedFiles.withLock { $0 = $0.filter { listed[$0.key] != nil } }
        return (files, listed)
    }

    /// Everything every instance has written: the merge of all shard files.
    package func inputsOnDisk() throws -> IndexInputs {
        let shards = try filesOnDisk().files.mapValues(\.inputs)
        var inputs = IndexInputs()
        for name in shards.keys.sorted() { inputs.merge(shards[name]!) }
        return inputs
    }

    /// Every shard file's identity: what changes when any instance writes one.
    func shardSignature() -> [String: FileIdentity] { (try? listShardFiles()) ?? [:] }

    /// The shard files and their identities; one gone between listing and `stat` is left out.
    private func listShardFiles() throws -> [String: FileIdentity] {
        var files: [String: FileIdentity] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".json") {
            files[name] = FileIdentity(path: directory.appendingPathComponent(name).path)
        }
        return files
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
        var state = Owned()
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
            let decoder = JSONDecoder()
            decoder.userInfo[InternedStrings.key] = internedStrings
            return .read(try decoder.decode(IndexShard.self, from: data))
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
