import ArtpipeSupport
import Crypto
import Foundation
import Synchronization

/// Publishes the index from the shards on disk (``IndexLayout``): each file written whole, and
/// only when its bytes change; `index.json` last; files no longer part of the index removed.
public final class IndexPublisher: Sendable {
    /// What this instance knows a published file holds.
    private struct Published {
        var digest: [UInt8]
        /// Size and modification time after this instance wrote or checked it.
        var signature: String?
    }

    private struct State {
        var published: [String: Published] = [:]
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

    /// Returns how many files were written or removed.
    @discardableResult
    public func publish() throws -> Int {
        // Taken before reading: a shard written meanwhile shows as a change next time.
        let signature = store.shardSignature()
        state.withLock { $0.builtFrom = signature }
        let files = IndexLayout.files(for: ArtistIndex.build(from: try store.inputsOnDisk()))
        for folder in [IndexLayout.worksFolder, IndexLayout.galleryFolder] {
            try FileManager.default.createDirectory(
                at: outputDirectory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        var changes = 0
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) where path != IndexLayout.manifestPath {
            if try publish(bytes, at: path) { changes += 1 }
        }
        // The manifest last: a reader who sees it new finds the files it names already there.
        if let manifest = files[IndexLayout.manifestPath], try publish(manifest, at: IndexLayout.manifestPath) {
            changes += 1
        }
        // Then what the index no longer has, after the manifest that stopped naming it.
        for path in IndexLayout.publishedPaths(in: outputDirectory).sorted() where files[path] == nil {
            let url = outputDirectory.appendingPathComponent(path)
            if unlink(url.path) != 0 && errno != ENOENT {
                throw FileWriteError(path: url.path, reason: String(cString: strerror(errno)))
            }
            state.withLock { _ = $0.published.removeValue(forKey: path) }
            changes += 1
        }
        return changes
    }

    /// Writes `bytes` to `path` unless the file already holds them. Returns whether it wrote.
    private func publish(_ bytes: [UInt8], at path: String) throws -> Bool {
        let url = outputDirectory.appendingPathComponent(path)
        let digest = Array(SHA256.hash(data: bytes))
        let onDisk = IndexStateStore.fileSignature(url)
        let known = state.withLock { $0.published[path] }
        if let known, onDisk != nil, known.signature == onDisk {
            if known.digest == digest { return false }
        } else if onDisk != nil, let current = try? Data(contentsOf: url), Self.same(current, bytes) {
            // Written by another instance, or before a restart: the same bytes stay.
            state.withLock { $0.published[path] = Published(digest: digest, signature: onDisk) }
            return false
        }
        try AtomicFile.write(Data(bytes), to: url)
        let written = IndexStateStore.fileSignature(url)
        state.withLock { $0.published[path] = Published(digest: digest, signature: written) }
        return true
    }

    private static func same(_ data: Data, _ bytes: [UInt8]) -> Bool {
        guard data.count == bytes.count else { return false }
        return bytes.isEmpty
            || data.withUnsafeBytes { data in
                bytes.withUnsafeBytes { memcmp(data.baseAddress!, $0.baseAddress!, bytes.count) == 0 }
            }
    }

    /// Whether the published files may no longer match the shards: another instance wrote a
    /// shard since the last build, or replaced, added or removed a published file. With several
    /// index workers, one may publish from shards another was still writing, even after the
    /// other's complete index, and then die: every live instance rebuilds and, where the bytes
    /// differ, puts the right ones back.
    public func changedSinceLastBuild() -> Bool {
        let (builtFrom, published) = state.withLock { ($0.builtFrom, $0.published) }
        if store.shardSignature() != builtFrom { return true }
        // A stat per file: a few thousand at a million works.
        if Set(published.keys) != IndexLayout.publishedPaths(in: outputDirectory) { return true }
        return published.contains { path, file in
            IndexStateStore.fileSignature(outputDirectory.appendingPathComponent(path)) != file.signature
        }
    }
}
