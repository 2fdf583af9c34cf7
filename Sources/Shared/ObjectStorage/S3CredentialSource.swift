import Foundation
import Synchronization

/// The credentials requests are signed with now, and where to read them again: temporary
/// credentials (`AWS_SESSION_TOKEN`, a credentials file that a sidecar or a mounted secret
/// renews) expire while a worker runs, and the store then answers `ExpiredToken`.
package final class S3CredentialSource: Sendable {
    private let current: Mutex<S3Credentials>
    private let read: @Sendable () throws -> S3Credentials

    /// - Parameter read: where the credentials come from again, after they expired.
    package init(_ credentials: S3Credentials, readAgain read: @escaping @Sendable () throws -> S3Credentials) {
        self.current = Mutex(credentials)
        self.read = read
    }

    /// Credentials that never change (tests, a fixed key).
    package convenience init(fixed credentials: S3Credentials) {
        self.init(credentials, readAgain: { credentials })
    }

    /// From the environment or the shared credentials file, read again from there when they expire.
    package static func resolve(environment: [String: String]) throws -> S3CredentialSource {
        // Read again from the same place: a process's variables never change, its credentials file may.
        S3CredentialSource(try S3Credentials.resolve(environment: environment)) {
            try S3Credentials.resolve(environment: environment)
        }
    }

    package var credentials: S3Credentials { current.withLock { $0 } }

    /// Reads the credentials again; true when they changed. A failed read keeps the old ones.
    @discardableResult
    func readAgain() -> Bool {
        guard let fresh = try? read() else { return false }
        return current.withLock { credentials in
            defer { credentials = fresh }
            return credentials != fresh
        }
    }
}
