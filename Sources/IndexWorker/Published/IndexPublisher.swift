import ArtpipeSupport
import Crypto
import Dispatch
import Foundation
import ObjectStorage
import Synchronization

/// Publishes the index from the shards on disk (``IndexLayout``) to the output store (a folder
/// or a bucket): each file written whole, and only when its bytes change; `index.json` last;
/// files no longer part of the index removed after it.
package final class IndexPublisher: Sendable {
    /// What this instance knows a published file holds.
    private struct Published {
        var digest: [UInt8]
        /// The file after this instance wrote or checked it.
        var version: OutputVersion?
    }

    private struct State {
        var published: [String: Published] = [:]
        /// The shard files the last publish read, as ``IndexStateStore/shardSignature()`` gives them.
        var builtFrom: [String: FileIdentity]?
        /// The index as last published; nil until the first build, and after a publish that failed.
        var live: LiveArtistIndex?
    }

    private let output: any OutputStore
    private let store: IndexStateStore
    // Only the writer service calls in, one call at a time; the lock makes that checkable.
    private let state = Mutex(State())

    package init(output: any OutputStore, store: IndexStateStore) {
        self.output = output
        self.store = store
    }

    package convenience init(outputDirectory: URL, store: IndexStateStore) {
        self.init(output: FolderOutputStore(directory: outputDirectory), store: store)
    }

    /// Returns how many files were written or removed.
    ///
    /// The first publish builds the index from every shard and renders every file. After that
    /// only the page ids in shard files that changed are taken in, and only the buckets of the
    /// artists they touch are rendered again; the manifest and the gallery's shared files are
    /// rendered every time. Files replaced under us, or a publish that failed, bring back a
    /// whole render or build.
    @discardableResult
    package func publish() throws -> Int {
        // One look at what is published: a listing per folder, not a request per file.
        let listing = try IndexLayout.publishedVersions(in: output)
        let filesReplaced = publishedFilesChanged(listing)
        var previous = state.withLock { $0.live.take() }
        let reading = try store.readChanges()
        // Identities taken before reading: a shard written meanwhile shows as a change next time.
        state.withLock { $0.builtFrom = reading.listed }
        var live: LiveArtistIndex
        var buckets: Set<Int>?
        let pageIds = Set(reading.changes.flatMap { ($0.before?.pageIds ?? []).union($0.after?.pageIds ?? []) })
        // Moved out, not copied: a second reference would make the update copy every table.
        if var current = previous.take(), pageIds.count <= max(64, current.inputs.pages.count / 4) {
            let shards = ShardsByPart(reading.shards)
            let touched = current.update(pageIds) { pageId, inputs in
                inputs.resolve(pageId, from: shards.candidates(for: pageId))
            }
            buckets = touched.reduce(into: []) { buckets, artist in
                buckets.formUnion(
                    IndexLayout.buckets(of: artist.key, counts: artist.value, current.workCount(of: artist.key)))
            }
            live = current
        } else {
            var inputs = IndexInputs()
            for name in reading.shards.keys.sorted() { inputs.merge(reading.shards[name]!) }
            live = LiveArtistIndex(inputs)
        }
        if filesReplaced { buckets = nil }
        let changes = try write(live.content, buckets: buckets, listing: listing)
        state.withLock { $0.live = live }
        return changes
    }

    /// Writes the shared files, and the given buckets' (all when nil); the manifest last; then
    /// removes the files no longer part of the index.
    private func write(_ index: IndexContent, buckets: Set<Int>?, listing: [String: OutputVersion]) throws -> Int {
        let plan = IndexLayout.Plan(index)
        var current = Set<String>()
        for bucket in plan.buckets.keys {
            current.insert(IndexLayout.worksPath(bucket))
            current.insert(GallerySite.bucketPath(bucket))
        }
        // Rendered a bucket at a time, one per core (more for a store whose writes mostly wait),
        // so a whole render never holds every file at once. This runs on the blocking pool already.
        let rendered = plan.buckets.keys.filter { buckets?.contains($0) ?? true }.sorted()
        let outcome = Mutex<(changes: Int, error: (any Error)?)>((0, nil))
        let width = max(ProcessInfo.processInfo.activeProcessorCount, output.writeConcurrency)
        BlockingFanOut.run(iterations: rendered.count, width: width) { number in
            guard outcome.withLock({ $0.error == nil }) else { return }
            do {
                for (path, bytes) in IndexLayout.bucketFiles(rendered[number], of: index, plan: plan) {
                    if try publish(bytes, at: path, listed: listing[path]) { outcome.withLock { $0.changes += 1 } }
                }
            } catch {
                outcome.withLock { $0.error = error }
            }
        }
        let (bucketChanges, failure) = outcome.withLock { $0 }
        if let failure { throw failure }
        var changes = bucketChanges
        let shared = IndexLayout.sharedFiles(for: index, plan: plan)
        current.formUnion(shared.keys)
        for (path, bytes) in shared.sorted(by: { $0.key < $1.key }) where path != IndexLayout.manifestPath {
            if try publish(bytes, at: path, listed: listing[path]) { changes += 1 }
        }
        // The manifest last: a reader who sees it new finds the files it names already there.
        if let manifest = shared[IndexLayout.manifestPath],
            try publish(manifest, at: IndexLayout.manifestPath, listed: listing[IndexLayout.manifestPath])
        {
            changes += 1
        }
        // Then what the index no longer has, after the manifest that stopped naming it.
        for path in listing.keys.sorted() where !current.contains(path) {
            try output.remove(path)
            state.withLock { _ = $0.published.removeValue(forKey: path) }
            changes += 1
        }
        return changes
    }

    /// Writes `bytes` to `path` unless the store already holds them. Returns whether it wrote.
    /// - Parameter listed: the version the store listed at the start of this publish.
    private func publish(_ bytes: [UInt8], at path: String, listed: OutputVersion?) throws -> Bool {
        let digest = Array(SHA256.hash(data: bytes))
        let known = state.withLock { $0.published[path] }
        if let known, listed != nil, known.version == listed {
            if known.digest == digest { return false }
        } else if listed != nil, let current = try output.read(path), current == bytes {
            // Written by another instance, or before a restart: the same bytes stay.
            state.withLock { $0.published[path] = Published(digest: digest, version: listed) }
            return false
        }
        // Not flushed to disk: a restart builds the index from the state again and compares
        // every file's bytes, so a file a power cut left behind is put right.
        let written = try output.write(bytes, to: path, durable: false)
        state.withLock { $0.published[path] = Published(digest: digest, version: written) }
        return true
    }

    /// Whether the published files may no longer match the shards: another instance wrote a
    /// shard since the last build, or replaced, added or removed a published file. With several
    /// index workers, one may publish from shards another was still writing, even after the
    /// other's complete index, and then die: every live instance rebuilds and, where the bytes
    /// differ, puts the right ones back.
    package func changedSinceLastBuild() throws -> Bool {
        // No build yet, or the last publish failed part way.
        if state.withLock({ $0.live == nil }) { return true }
        let builtFrom = state.withLock { $0.builtFrom }
        return try store.shardSignature() != builtFrom
            || publishedFilesChanged(IndexLayout.publishedVersions(in: output))
    }

    /// Whether a published file was replaced, added or removed by anyone but this instance:
    /// against a listing of the index's folders (a stat per file in a folder, a page of a
    /// thousand keys per request in a bucket).
    private func publishedFilesChanged(_ listing: [String: OutputVersion]) -> Bool {
        let published = state.withLock { $0.published }
        if Set(published.keys) != Set(listing.keys) { return true }
        return published.contains { path, file in listing[path] != file.version }
    }
}
