import Dispatch
import Foundation
import Synchronization

/// Runs `iterations` blocking jobs on `width` threads, each taking the next job when it is done,
/// and returns when all are: Dispatch's `concurrentPerform` with a chosen width. Its threads
/// are Dispatch's up to the number of cores; beyond, for jobs that mostly wait (requests to a
/// store), threads of their own.
package enum BlockingFanOut {
    package static func run(iterations: Int, width: Int, _ job: (Int) -> Void) {
        guard iterations > 0 else { return }
        let width = min(max(width, 1), iterations)
        let next = Atomic<Int>(0)
        func work() {
            while true {
                let number = next.add(1, ordering: .relaxed).oldValue
                guard number < iterations else { return }
                job(number)
            }
        }
        withoutActuallyEscaping(work) { work in
            // Handed to other threads, and taken back before `work` goes: a thread object may
            // outlive its block a little, so it holds the box, not the closure.
            let shared = SharedJob(work)
            defer { shared.release() }
            if width <= ProcessInfo.processInfo.activeProcessorCount {
                DispatchQueue.concurrentPerform(iterations: width) { _ in shared.run() }
                return
            }
            let done = DispatchGroup()
            for _ in 0..<width {
                done.enter()
                Thread {
                    shared.run()
                    done.leave()
                }.start()
            }
            done.wait()
        }
    }

    /// The job, for the threads that run it, until ``release()``; only read while they run.
    private final class SharedJob: @unchecked Sendable {
        private var job: (() -> Void)?

        init(_ job: @escaping () -> Void) {
            self.job = job
        }

        func run() { job?() }

        func release() { job = nil }
    }
}
