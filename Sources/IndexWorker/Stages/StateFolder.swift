import ArtpipeSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The folder a copy keeps its state in, its own for the life of the process: a second process
/// given the same folder is refused at start (a lock on `.lock` in it), since each would replace
/// the other's files.
package final class StateFolder: Sendable {
    package let url: URL
    private let lock: Int32

    package init(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError("cannot make the state folder \(url.path): \(error.localizedDescription)")
        }
        let path = url.appendingPathComponent(".lock").path
        let lock = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lock >= 0 else {
            throw ConfigurationError("cannot use the state folder \(url.path): \(String(cString: strerror(errno)))")
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw ConfigurationError(
                "the state folder \(url.path) is in use by another index worker: give each copy its own --state")
        }
        (self.url, self.lock) = (url, lock)
    }

    deinit {
        close(lock)
    }
}
