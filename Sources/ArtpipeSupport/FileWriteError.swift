/// A file that could not be written (a full disk, a missing permission): an operational
/// failure, never a bad flag, so it does not exit as one.
public struct FileWriteError: Error, CustomStringConvertible, Sendable {
    public let path: String
    /// The system's reason (`strerror`).
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write \(path): \(reason)" }
}
