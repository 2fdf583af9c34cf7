import CFileWriteback
import Foundation

/// Writes files whole or not at all: a temporary file beside the target, flushed to disk,
/// then renamed over it, and the directory flushed, so a reader never sees a torn file and a
/// power cut after the write cannot bring back the old one.
package enum AtomicFile {
    /// How long a temporary file may be left behind before a sweep takes it for a killed write:
    /// a write takes milliseconds, so anything this old has no writer.
    static let staleAfter: Duration = .seconds(600)
    /// How many of a batch's files are open at once (``write(_:durable:)``).
    package static let openAtOnce = 64

    /// Returns the written file's status, taken before the rename: the file now at `url`
    /// unless someone has replaced it since.
    ///
    /// `durable: false` leaves out both flushes: for files that are derived from state that is
    /// itself durable, and are checked against it again after a restart. Readers still see the
    /// old file or the new one whole.
    @discardableResult
    package static func write(_ data: Data, to url: URL, durable: Bool = true) throws -> stat {
        try write([(data, url)], durable: durable)[0]
    }

    /// Writes every file as ``write(_:to:durable:)`` does, with the folders' flushes shared:
    /// each written to a temporary file and flushed, then all renamed, then each folder flushed
    /// once. A round that publishes dozens of files into three folders waits for the disk about
    /// once a file, not twice. The files are written ``openAtOnce`` at a time, each one's write
    /// to the disk started as soon as it is written, and flushed after: the disk then writes
    /// them side by side, where a flush right after each write waited for them one by one
    /// (hundreds of bucket files a page at ten million works). A failure leaves the files
    /// renamed before it in place (each whole) and no temporary file.
    ///
    /// - Parameter renaming: runs the renames, every file's, when called: a caller may hold a lock
    ///   around them and check what the targets hold first; throwing without calling it renames
    ///   nothing (and leaves no temporary file).
    @discardableResult
    package static func write(
        _ files: [(data: Data, url: URL)], durable: Bool = true,
        renaming: (_ renames: () throws -> Void) throws -> Void = { try $0() }
    ) throws -> [stat] {
        var written: [(temporary: String, url: URL)] = []
        var renamed = 0
        defer {
            // Whatever was not renamed: a failure part-way.
            for file in written[renamed...] { unlink(file.temporary) }
        }
        var statuses: [stat] = []
        statuses.reserveCapacity(files.count)
        for start in stride(from: 0, to: files.count, by: openAtOnce) {
            var batch: [(descriptor: Int32, url: URL)] = []
            defer { for file in batch { close(file.descriptor) } }
            for (data, url) in files[start..<min(start + openAtOnce, files.count)] {
                let temporary = temporaryPath(for: url)
                let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
                guard descriptor >= 0 else {
                    throw FileWriteError(path: temporary, reason: String(cString: strerror(errno)))
                }
                written.append((temporary, url))
                batch.append((descriptor, url))
                let writeError = data.withUnsafeBytes { writeFully(descriptor, $0) }
                guard writeError == 0 else {
                    throw FileWriteError(path: url.path, reason: String(cString: strerror(writeError)))
                }
                // Only a hint: the flush below is what makes it durable.
                if durable { _ = artpipe_start_writeback(descriptor) }
            }
            for (descriptor, url) in batch {
                var status = stat()
                if durable && fsync(descriptor) != 0 || fstat(descriptor, &status) != 0 {
                    throw FileWriteError(path: url.path, reason: String(cString: strerror(errno)))
                }
                statuses.append(status)
            }
        }
        try renaming {
            for file in written[renamed...] {
                guard rename(file.temporary, file.url.path) == 0 else {
                    throw FileWriteError(path: file.url.path, reason: String(cString: strerror(errno)))
                }
                renamed += 1
            }
        }
        if durable {
            for directory in Set(files.map { $0.url.deletingLastPathComponent().path }).sorted() {
                try syncDirectory(URL(fileURLWithPath: directory))
            }
        }
        return statuses
    }

    private static func temporaryPath(for url: URL) -> String {
        url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        ).path
    }

    /// Flushes the directory entry the rename made. File systems that cannot sync a directory
    /// (EINVAL) have nothing more to flush.
    private static func syncDirectory(_ directory: URL) throws {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else {
            throw FileWriteError(path: directory.path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 && errno != EINVAL {
            throw FileWriteError(path: directory.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Removes the temporary files that writes killed mid-way (SIGKILL, a crash) left in
    /// `directory`: those named as ``write(_:to:)`` names them and older than ``staleAfter``.
    /// Returns how many it removed.
    @discardableResult
    package static func removeStaleTemporaries(in directory: URL, now: Date = Date()) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") && name.split(separator: ".").count >= 4 {
            let url = directory.appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                (attributes[.type] as? FileAttributeType) == .typeRegular,
                let modified = attributes[.modificationDate] as? Date,
                now.timeIntervalSince(modified) > staleAfter.seconds
            else { continue }
            if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }
}
