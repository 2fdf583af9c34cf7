import ObjectStorage

/// What a copy knows of the output's index files between listings: the listing last read,
/// with this copy's own writes and removals since; what each file it read or wrote holds
/// (``FileContent``); the version of each index file it wrote, and the files it removed; and
/// what another writer replaced, brought back or removed since, as the last listing read anew
/// showed (a copy that has not yet heard it lost the shard, or one that stalled mid-write): the
/// shards of such bucket files, and whether a shared file was. Only files whose bytes differ are
/// written.
///
/// Not locked: ``ShardPublisher`` uses it under its round's lock. Its calls block on the output.
final class KnownOutput: @unchecked Sendable {
    /// A file to write: its bytes differ from what it holds.
    typealias Change = (path: String, bytes: [UInt8], content: FileContent)

    let output: any OutputStore
    let shards: IndexShards
    /// How old a listing may be before it is read anew.
    let relistEvery: Duration
    /// The output's index files as last listed, with what this copy wrote and removed since;
    /// nil until first listed.
    private(set) var listing: [String: OutputVersion]?
    private var listedAt = ContinuousClock.now
    private var known: [String: FileContent] = [:]
    private var written: [String: OutputVersion] = [:]
    /// The index files this copy removed since it last wrote them.
    private var removed: Set<String> = []
    /// The shards with a bucket file another writer replaced or brought back: each is written
    /// whole again (``forgetFiles(of:)``).
    private(set) var replaced: Set<Int> = []
    /// Whether another writer replaced, brought back or removed a shared file this copy wrote
    /// or removed: the shared files are assembled anew (``forgetShared()``).
    private(set) var sharedReplaced = false

    init(output: any OutputStore, shards: IndexShards, relistEvery: Duration) {
        (self.output, self.shards, self.relistEvery) = (output, shards, relistEvery)
    }

    /// The output's index files: listed now when the last listing is older than
    /// ``relistEvery`` or `again`, else as last listed with this copy's changes since.
    func listed(again: Bool = false) throws -> [String: OutputVersion] {
        try relistIfDue(again: again)
        return listing ?? [:]
    }

    /// Lists the output's index files when the last listing is older than ``relistEvery``, or
    /// `again`, and finds the shards with a file another writer replaced (``replaced``). Only a
    /// listing read anew can show one: the listing kept since holds this copy's own writes, and
    /// comparing every bucket file's version each round cost 5-30 ms of it.
    func relistIfDue(again: Bool) throws {
        if listing != nil, !again, ContinuousClock.now - listedAt < relistEvery { return }
        let listing = try IndexLayout.publishedVersions(in: output)
        (self.listing, listedAt) = (listing, .now)
        replaced = []
        let changed =
            written.filter { listing[$0.key] != $0.value }.map(\.key) + removed.filter { listing[$0] != nil }
        for path in changed {
            if let bucket = IndexLayout.bucket(ofFile: path) {
                replaced.insert(shards.shard(ofBucket: bucket))
            } else {
                sharedReplaced = true
            }
        }
    }

    /// `bytes` to write at `path`, unless the file holds them (read once, then known by digest,
    /// or a shared file by its bytes: ``FileContent``).
    /// - Parameter listed: the file's version listed at the start of this round.
    func change(_ bytes: [UInt8], at path: String, listed: OutputVersion? = nil) throws -> Change? {
        if known[path] == nil {
            known[path] = FileContent(try output.read(path), at: path)
            // Watched from now on as if written: another writer's later change shows at a listing.
            if IndexLayout.isIndexFile(path), let version = listed ?? listing?[path] { written[path] = version }
        }
        let content = FileContent(bytes, at: path)
        return known[path] == content ? nil : (path, bytes, content)
    }

    /// Writes `changes` together (``OutputStore/write(_:durable:conditions:)``), each index file
    /// only over the version the listing shows (nothing there: only where nothing is), so a
    /// write this copy prepared before another writer replaced the file is refused. Returns how
    /// many. A refusal (``OutputConflict``) drops the listing and what this copy knew of that
    /// file: the next round lists anew, and finds the shard replaced (``replaced``) where the
    /// other writer took a file this copy wrote.
    func write(_ changes: [Change]) throws -> Int {
        guard !changes.isEmpty else { return 0 }
        // Listed anew after a refusal: no write goes without its condition.
        if listing == nil { try relistIfDue(again: true) }
        var conditions: [String: OutputCondition] = [:]
        if let listing {
            for change in changes where IndexLayout.isIndexFile(change.path) {
                conditions[change.path] = listing[change.path].map(OutputCondition.version) ?? .absent
            }
        }
        let versions: [OutputVersion]
        do {
            versions = try output.write(changes.map { ($0.path, $0.bytes) }, durable: true, conditions: conditions)
        } catch let conflict as OutputConflict {
            (listing, known[conflict.path]) = (nil, nil)
            throw conflict
        }
        for (change, version) in zip(changes, versions) {
            known[change.path] = change.content
            guard IndexLayout.isIndexFile(change.path) else { continue }
            listing?[change.path] = version
            written[change.path] = version
            removed.remove(change.path)
        }
        return changes.count
    }

    /// Removes an index file, from the listing and from what this copy knows.
    func remove(_ path: String) throws {
        try output.remove(path)
        listing?[path] = nil
        (known[path], written[path]) = (nil, nil)
        if IndexLayout.isIndexFile(path) { removed.insert(path) }
    }

    /// Watches the files of `shard` the listing shows as if this copy had written them: a
    /// later listing shows another writer's change to one (``replaced``).
    func watchFiles(of shard: Int) throws {
        for (path, version) in try files(of: shard) { written[path] = version }
    }

    /// A digest of the paths and versions of `shard`'s files as the last listing shows them,
    /// with this copy's writes since: another writer's file, one gone or one more changes it.
    func filesDigest(of shard: Int) throws -> String {
        let listed = try files(of: shard).map { "\($0.path)\u{0}\($0.version.token)\u{0}" }.joined()
        return String(IndexLayout.nameHash(listed), radix: 16)
    }

    /// The bucket files of `shard` the last listing shows, with this copy's writes since, and
    /// their versions, by bucket; listed now if never yet. Each of the shard's buckets looked up,
    /// not the listing searched: asked for every shard a round publishes.
    private func files(of shard: Int) throws -> [(path: String, version: OutputVersion)] {
        let listing = try self.listing ?? listed()
        var files: [(path: String, version: OutputVersion)] = []
        for bucket in stride(from: shard, to: IndexLayout.bucketCount, by: shards.count) {
            for path in [IndexLayout.worksPath(bucket), GallerySite.bucketPath(bucket)] {
                if let version = listing[path] { files.append((path, version)) }
            }
        }
        return files
    }

    /// Forgets what this copy knows of a shard's files: they are read back from the output.
    func forgetFiles(of shard: Int) {
        let own = { (path: String) in IndexLayout.bucket(ofFile: path).map { self.shards.shard(ofBucket: $0) } == shard
        }
        known = known.filter { !own($0.key) }
        written = written.filter { !own($0.key) }
        removed = removed.filter { !own($0) }
        replaced.remove(shard)
    }

    /// Forgets what this copy knows of the shared files (no bucket's): another copy writes them,
    /// or another writer replaced one.
    func forgetShared() {
        let bucketFile = { (path: String) in IndexLayout.bucket(ofFile: path) != nil }
        known = known.filter { bucketFile($0.key) }
        written = written.filter { bucketFile($0.key) }
        removed = removed.filter(bucketFile)
        sharedReplaced = false
    }
}
