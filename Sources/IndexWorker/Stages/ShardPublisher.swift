import Logging
import ObjectStorage

/// Publishes what this copy's index stages hold and may publish (docs/architecture.md, "What
/// a copy publishes, and when"): the bucket files and summary of each artist shard it holds
/// that is ready, the summary of each page partition it holds that is restored and ready, and,
/// on the copy that holds shard 0, the shared files once every summary is there and newer than
/// the ones they were last assembled from. Only files whose bytes change are written; only
/// files of its own shards' buckets are removed.
package actor ShardPublisher {
    let output: any OutputStore
    let shards: IndexShards
    let pages: PagesStage
    let artists: ArtistsStage
    let summaries: IndexSummaries
    let logger: Logger
    /// Each shard's assignment it was last published under.
    private var publishedUnder: [Int: Int] = [:]
    /// What each file written or read holds, for the shards published under their assignment.
    private var known: [String: [UInt8]] = [:]

    package init(output: any OutputStore, partitions: Int, pages: PagesStage, artists: ArtistsStage, logger: Logger) {
        self.output = output
        shards = IndexShards(count: partitions)
        self.pages = pages
        self.artists = artists
        summaries = IndexSummaries(output: output)
        self.logger = logger
    }

    /// One round; returns how many files it wrote or removed.
    @discardableResult
    package func publish() async throws -> Int {
        let held = artists.progress.held
        let ready = artists.progress.ready
        await artists.shards.keep(only: Set(held.keys))
        publishedUnder = publishedUnder.filter { held[$0.key] == $0.value }
        var count = 0
        for shard in ready.sorted() {
            guard let generation = held[shard] else { continue }
            let first = publishedUnder[shard] != generation
            guard let works = await artists.shards.take(shard, generation: generation, always: first) else { continue }
            do {
                count += try publish(works, first: first)
                publishedUnder[shard] = generation
            } catch {
                await artists.shards.republish(shard)
                throw error
            }
        }
        for summary in await pages.states.summaries(of: pages.progress.ready) { try summaries.write(summary) }
        if ready.contains(0) { count += try assemble() }
        return count
    }

    private func publish(_ works: ShardWorks, first: Bool) throws -> Int {
        let index = works.index
        let files = IndexLayout.bucketFiles(of: index, shards: shards)
        let own = { (path: String) in
            IndexLayout.bucket(ofFile: path).map { self.shards.shard(ofBucket: $0) } == works.shard
        }
        if first { known = known.filter { !own($0.key) } }
        var count = 0
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) where try write(bytes, to: path) { count += 1 }
        for path in try IndexLayout.publishedVersions(in: output).keys.sorted() where own(path) && files[path] == nil {
            try output.remove(path)
            known[path] = nil
            count += 1
        }
        try summaries.write(ShardSummary(shard: works.shard, index: index))
        return count
    }

    /// The shared files, when every summary is there and newer than what they were built from.
    private func assemble() throws -> Int {
        guard let (shardSummaries, pageSummaries, versions) = try summaries.read(count: shards.count),
            versions.supersedes(try summaries.assembled())
        else { return 0 }
        let files = IndexAssembly.sharedFiles(shards: shardSummaries, pages: pageSummaries, layout: shards)
        var count = 0
        // The manifest last: what it names is there before it names it.
        let last = { (path: String) in path == IndexLayout.manifestPath ? 1 : 0 }
        for (path, bytes) in files.sorted(by: { (last($0.key), $0.key) < (last($1.key), $1.key) })
        where try write(bytes, to: path) {
            count += 1
        }
        for path in try IndexLayout.publishedVersions(in: output).keys.sorted()
        where IndexLayout.bucket(ofFile: path) == nil && files[path] == nil {
            try output.remove(path)
            count += 1
        }
        try summaries.recordAssembled(versions)
        logger.debug("shared index files assembled", metadata: ["files": "\(count)"])
        return count
    }

    /// Writes `bytes` unless the file holds them. Returns whether it wrote.
    private func write(_ bytes: [UInt8], to path: String) throws -> Bool {
        if known[path] == nil { known[path] = try output.read(path) }
        guard known[path] != bytes else { return false }
        _ = try output.write(bytes, to: path, durable: true)
        known[path] = bytes
        return true
    }
}
