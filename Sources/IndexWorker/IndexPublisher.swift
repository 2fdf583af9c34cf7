import ArtpipeSupport
import Foundation
import Synchronization

/// Writes `index.json` and `index.html` from the shards on disk, whole or not at all, and
/// only when their bytes change.
public final class IndexPublisher: Sendable {
    private struct State {
        var lastWritten: [UInt8]?
        /// The shard files the last build read, as ``IndexStateStore/shardSignature()``.
        var builtFrom: [String: String]?
        /// Size and modification time of `index.json` as this instance last wrote or checked it.
        var publishedSignature: String?
    }

    private let outputDirectory: URL
    private let store: IndexStateStore
    // Only the writer service calls in, one call at a time; the lock makes that checkable.
    private let state = Mutex(State())

    public init(outputDirectory: URL, store: IndexStateStore) {
        self.outputDirectory = outputDirectory
        self.store = store
    }

    private var indexURL: URL { outputDirectory.appendingPathComponent("index.json") }

    /// Returns whether the files changed.
    @discardableResult
    public func publish() throws -> Bool {
        // Taken before reading: a shard written meanwhile shows as a change next time.
        let signature = store.shardSignature()
        state.withLock { $0.builtFrom = signature }
        let index = ArtistIndex.build(from: try store.inputsOnDisk())
        let json = try index.jsonBytes()
        let onDisk = IndexStateStore.fileSignature(indexURL)
        let (lastWritten, published) = state.withLock { ($0.lastWritten, $0.publishedSignature) }
        if json == lastWritten && onDisk == published { return false }
        // Another instance wrote the file since: keep it when it says the same.
        if onDisk != published, let current = try? Data(contentsOf: indexURL), Array(current) == json {
            state.withLock {
                $0.lastWritten = json
                $0.publishedSignature = onDisk
            }
            return false
        }
        try AtomicFile.write(
            Data(GalleryPage.render(index).utf8), to: outputDirectory.appendingPathComponent("index.html"))
        // index.json last: a reader who sees it new finds the page already matching.
        try AtomicFile.write(Data(json), to: indexURL)
        let written = IndexStateStore.fileSignature(indexURL)
        state.withLock {
            $0.lastWritten = json
            $0.publishedSignature = written
        }
        return true
    }

    /// Whether the published files may no longer match the shards: another instance wrote a
    /// shard since the last build, or wrote `index.json` itself. With several index workers,
    /// one may publish from shards another was still writing, even after the other's complete
    /// index, and then die: every live instance rebuilds and, where the bytes differ, puts the
    /// right ones back.
    public func changedSinceLastBuild() -> Bool {
        let (builtFrom, published) = state.withLock { ($0.builtFrom, $0.publishedSignature) }
        return store.shardSignature() != builtFrom || IndexStateStore.fileSignature(indexURL) != published
    }
}
