/// A file that could not be written (a full disk, a missing permission): an operational
/// failure, never a bad flag, so it does not exit as one.
package struct FileWriteError: Error, CustomStringConvertible, Sendable {
    package let path: String
    /// The system's reason (`strerror`).
    package let reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "cannot write \(path): \(reason)" }
}
