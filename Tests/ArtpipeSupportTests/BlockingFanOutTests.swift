import ArtpipeSupport
import Foundation
import Synchronization
import Testing

@Suite("Blocking jobs fanned out over threads", .timeLimit(.minutes(1)))
struct BlockingFanOutTests {
    @Test(
        "every job runs once; with a width above the cores, that many wait at once",
        arguments: [1, ProcessInfo.processInfo.activeProcessorCount + 2])
    func eachOnceAtWidth(width: Int) {
        let runs = Mutex<[Int: Int]>([:])
        let waiting = Mutex(0)
        let together = Mutex(0)
        BlockingFanOut.run(iterations: 64, width: width) { number in
            runs.withLock { $0[number, default: 0] += 1 }
            // The first `width` jobs wait for each other (up to 10 s): they can meet only if
            // `width` threads run at once.
            guard number < width else { return }
            waiting.withLock { $0 += 1 }
            let deadline = Date().addingTimeInterval(10)
            while waiting.withLock({ $0 }) < width, Date() < deadline { sched_yield() }
            if waiting.withLock({ $0 }) >= width { together.withLock { $0 += 1 } }
        }
        #expect(runs.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<64).map { ($0, 1) }))
        // Up to the cores, Dispatch may run the jobs on fewer threads than asked: only above them
        // is `width` threads at once a promise.
        if width > ProcessInfo.processInfo.activeProcessorCount {
            #expect(together.withLock { $0 } == width, "\(width) jobs waited at once")
        }
    }
}
