import Dispatch

/// Runs blocking work (an ``ObjectStorage/OutputStore``'s reads) on a Dispatch thread, so the
/// test's task does not hold one of the cooperative pool's few threads while it waits.
package func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
