import ArtpipeSupport
import ArtpipeTestKit
import Synchronization
import Testing

/// What the holders of a budget took together, as they saw it.
private final class Holdings: Sendable {
    let state = Mutex((now: 0, most: 0, order: [Int]()))
}

@Suite("Byte budget")
struct ByteBudgetTests {
    @Test("holders never take more than the budget together; waiters go in order; one larger than all runs alone")
    func bounded() async throws {
        let budget = ByteBudget(capacity: 1_000)
        let holdings = Holdings()
        await withTaskGroup(of: Void.self) { group in
            for (index, bytes) in [400, 400, 400, 5_000, 100, 600].enumerated() {
                group.addTask {
                    await budget.acquire(bytes)
                    let charge = budget.charge(for: bytes)
                    holdings.state.withLock {
                        $0.now += charge
                        $0.most = max($0.most, $0.now)
                        $0.order.append(index)
                    }
                    await Task.yield()
                    holdings.state.withLock { $0.now -= charge }
                    budget.release(bytes)
                }
            }
        }
        #expect(holdings.state.withLock { $0.most } <= 1_000)
        #expect(budget.peakInUse <= 1_000)
        #expect(holdings.state.withLock { $0.order.count } == 6)
        #expect(budget.charge(for: 5_000) == 1_000)
    }

    @Test("a waiter is let go as soon as enough is given back")
    func waiterResumes() async throws {
        let budget = ByteBudget(capacity: 10)
        await budget.acquire(8)
        let waiting = Task { await budget.acquire(5) }
        // The waiter cannot have its 5 while 8 of 10 are held; giving them back lets it go.
        try await waitUntil("the request to wait for room", timeout: .seconds(10)) { budget.waiting == 1 }
        budget.release(8)
        await waiting.value
        #expect(budget.peakInUse == 8)
        budget.release(5)
    }
}
