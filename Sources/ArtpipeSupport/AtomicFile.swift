import Foundation

/// Writes files whole or not at all: a temporary file beside the target, flushed to disk,
/// then renamed over it, so a reader never sees a torn file.
package enum AtomicFile {
    package static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw FileWriteError(path: temporary.path, reason: String(cString: strerror(errno)))
        }
        let writeError = data.withUnsafeBytes { writeFully(descriptor, $0) }
        var failure: String? = writeError == 0 ? nil : String(cString: strerror(writeError))
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil && rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw FileWriteError(path: url.path, reason: failure)
        }
    }
}
