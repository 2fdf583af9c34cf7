import Foundation

/// Runs blocking C calls on a thread of their own, so they never hold a thread of Swift's
/// cooperative pool.
public enum DedicatedThread {
    public static func run<T: Sendable>(name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.name = name
            thread.start()
        }
    }
}
