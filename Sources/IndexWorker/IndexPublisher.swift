import ArtpipeSupport
import Foundation

/// Writes `index.json` and `index.html` from the shards on disk, whole or not at all, and
/// only when their bytes change.
public final class IndexPublisher: @unchecked Sendable {
    private let outputDirectory: URL
    private let store: IndexStateStore
    // Touched only by the writer service, one call at a time.
    private var lastWritten: [UInt8]?
    /// The shard files the last build read, as ``IndexStateStore/shardSignature()``.
    private var builtFrom: [String: String]?

    public init(outputDirectory: URL, store: IndexStateStore) {
        self.outputDirectory = outputDirectory
        self.store = store
    }

    /// Returns whether the files changed.
    @discardableResult
    public func publish() throws -> Bool {
        // Taken before reading: a shard written meanwhile shows as a change next time.
        builtFrom = store.shardSignature()
        let index = ArtistIndex.build(from: try store.inputsOnDisk())
        let json = try index.jsonBytes()
        if json == lastWritten { return false }
        try AtomicFile.write(
            Data(GalleryPage.render(index).utf8), to: outputDirectory.appendingPathComponent("index.html"))
        // index.json last: a reader who sees it new finds the page already matching.
        try AtomicFile.write(Data(json), to: outputDirectory.appendingPathComponent("index.json"))
        lastWritten = json
        return true
    }

    /// Whether another instance wrote a shard since the last build. With several index
    /// workers, one may publish from shards another was still writing, and even write after
    /// the other's complete index: rebuilding on any shard change corrects that.
    public func shardsChangedSinceLastBuild() -> Bool {
        store.shardSignature() != builtFrom
    }
}
