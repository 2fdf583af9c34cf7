import Foundation

/// A fixed set of threads for blocking C calls (libvips), so they never hold Swift's
/// cooperative pool, and at most `threads` of them run at once.
public final class BlockingThreadPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    public init(threads: Int, name: String) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in self.work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Runs `body` on one of the pool's threads.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            jobs.append { continuation.resume(with: Result { try body() }) }
            condition.signal()
            condition.unlock()
        }
    }

    // The threads live as long as the process: a pool is made once per worker.
    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
