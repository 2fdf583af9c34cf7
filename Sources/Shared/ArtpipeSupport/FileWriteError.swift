/// A file that could not be written, or an output's file or folder that could not be read or
/// listed (a full disk, a missing permission): an operational failure, never a bad flag, so it
/// does not exit as one.
package struct FileWriteError: Error, CustomStringConvertible, Sendable {
    /// What was done when it failed.
    package enum Action: String, Sendable {
        case write, read, list
    }

    package let path: String
    /// The system's reason (`strerror`).
    package let reason: String
    package let action: Action

    package init(path: String, reason: String, action: Action = .write) {
        (self.path, self.reason, self.action) = (path, reason, action)
    }

    package var description: String { "cannot \(action.rawValue) \(path): \(reason)" }
}
