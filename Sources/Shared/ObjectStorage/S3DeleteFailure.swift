/// A key a DeleteObjects could not delete: the answer is 200, with an `<Error>` for the key.
package struct S3DeleteFailure: Sendable, Equatable {
    /// Relative to the location's prefix.
    package var key: String
    /// S3's error code (`InternalError`, `SlowDown`, Ceph's `UnknownError`, `AccessDenied`).
    package var code: String?
    package var message: String?

    package var reason: String { [code, message].compactMap { $0 }.joined(separator: ": ") }

    /// The failure as the store's error, classified by its code like any other answer.
    package func error(request: String) -> ObjectStoreError {
        .status(code: 200, error: code, message: message, request: request)
    }
}
