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
    }

    private let outputDirectory: URL
    private let store: IndexStateStore
    // Only the writer service calls in, one call at a time; the lock makes that checkable.
    private let state = Mutex(State())

    public init(outputDirectory: URL, store: IndexStateStore) {
        self.outputDirectory = outputDirectory
        self.store = store
    }

    /// Returns whether the files changed.
    @discardableResult
    public func publish() throws -> Bool {
        // Taken before reading: a shard written meanwhile shows as a change next time.
        let signature = store.shardSignature()
        state.withLock { $0.builtFrom = signature }
        let index = ArtistIndex.build(from: try store.inputsOnDisk())
        let json = try index.jsonBytes()
        if json == state.withLock({ $0.lastWritten }) { return false }
        try AtomicFile.write(
            Data(GalleryPage.render(index).utf8), to: outputDirectory.appendingPathComponent("index.html"))
        // index.json last: a reader who sees it new finds the page already matching.
        try AtomicFile.write(Data(json), to: outputDirectory.appendingPathComponent("index.json"))
        state.withLock { $0.lastWritten = json }
        return true
    }

    /// Whether another instance wrote a shard since the last build. With several index
    /// workers, one may publish from shards another was still writing, and even write after
    /// the other's complete index: rebuilding on any shard change corrects that.
    public func shardsChangedSinceLastBuild() -> Bool {
        store.shardSignature() != state.withLock { $0.builtFrom }
    }
}
