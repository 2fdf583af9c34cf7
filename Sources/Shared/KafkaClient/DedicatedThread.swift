import Foundation

/// A thread of its own for a poll loop, which blocks for as long as the client lives: such a
/// loop must hold neither a thread of Swift's cooperative pool nor one of a shared pool.
enum DedicatedThread {
    static func run<T: Sendable>(name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.name = name
            thread.start()
        }
    }
}
