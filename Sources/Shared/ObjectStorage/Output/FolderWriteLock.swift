import ArtpipeSupport
import Foundation

/// The lock a folder output's conditional writes hold while they compare what a file holds and
/// rename over it (``FolderOutputStore/write(_:durable:conditions:)``): `flock` on
/// `.artpipe-write.lock` in the folder, so two processes of a host never compare and rename at
/// once (on NFS the comparison may read cached attributes). Held for a few renames, never
/// waited for long: a holder frozen inside them (SIGSTOP) makes the others' writes fail for the
/// moment after ``patience`` (``Busy``), not hang.
package struct FolderWriteLock {
    package static let fileName = ".artpipe-write.lock"
    /// How long a write waits for the lock before it fails for the moment, unless told.
    package static let patience = Duration.seconds(5)

    let directory: URL
    let patience: Duration

    package init(directory: URL, patience: Duration = Self.patience) {
        (self.directory, self.patience) = (directory, patience)
    }

    /// The lock stayed held by another writer for ``patience``: for the moment (its holder may be
    /// frozen), and no sign of a folder missing, so a write does not begin again for it.
    package struct Busy: ClassifiedError, Sendable {
        package let path: String
        package let patience: Duration
        package var failureClass: FailureClass { .forNow }
        package var description: String { "not written: \(path) was held by another writer for \(patience)" }
    }

    /// Runs `body` holding the lock, waiting ``patience`` at most for it.
    package func holding<Result>(_ body: () throws -> Result) throws -> Result {
        let path = directory.appendingPathComponent(Self.fileName).path
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == ENOENT {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(errno))) }
        // Closing the descriptor lets the lock go, on every path.
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + patience
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw FileWriteError(path: path, reason: String(cString: strerror(errno)))
            }
            guard ContinuousClock.now < deadline else { throw Busy(path: path, patience: patience) }
            usleep(2_000)
        }
        return try body()
    }
}
