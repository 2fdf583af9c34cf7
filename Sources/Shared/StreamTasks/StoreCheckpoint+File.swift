import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension StoreCheckpoint {
    /// Where the checkpoint of the store file at `path` is kept: beside it.
    package static func location(of path: String) -> URL {
        URL(fileURLWithPath: path + ".checkpoint")
    }

    /// Writes the checkpoint to `url` whole or not at all: to a file beside it, synced, then
    /// renamed over it, and the folder synced. Call it only once the store file is sealed.
    package func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let temporary = url.appendingPathExtension("tmp")
        try encoder.encode(self).write(to: temporary)
        try Self.sync(temporary.path)
        guard rename(temporary.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        try Self.sync(url.deletingLastPathComponent().path)
    }

    /// The checkpoint at `url`, taken away (removed, and the removal synced) before it is
    /// returned: the store file it vouches for is about to be written again. Nil when there is
    /// none; throws when it cannot be read (it is removed all the same).
    package static func take(at url: URL) throws -> StoreCheckpoint? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        try FileManager.default.removeItem(at: url)
        try sync(url.deletingLastPathComponent().path)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(StoreCheckpoint.self, from: data)
    }

    private static func sync(_ path: String) throws {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(file) }
        guard fsync(file) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }
}
