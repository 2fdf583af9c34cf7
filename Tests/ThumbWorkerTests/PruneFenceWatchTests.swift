import Foundation
import Testing

@testable import ThumbWorker

@Suite("The prune fence as a thumb worker sees it")
struct PruneFenceWatchTests {
    @Test(
        "a running fence holds pages back while it is renewed; one left unrenewed is abandoned; a lowered one holds nothing"
    )
    func holdsWhileRenewed() {
        let watch = PruneFenceWatch()
        let start = ContinuousClock.now
        var fence = PruneFence(generation: "a", running: true, heartbeat: 0)
        #expect(watch.holds(fence, now: start))
        #expect(watch.holds(fence, now: start + .seconds(299)))
        // Renewed: the wait starts again from the renewal this worker saw.
        fence.heartbeat = 1
        #expect(watch.holds(fence, now: start + .seconds(299)))
        #expect(watch.holds(fence, now: start + .seconds(500)))
        #expect(!watch.holds(fence, now: start + .seconds(600)), "not renewed for 5 minutes: abandoned")
        fence.running = false
        #expect(!watch.holds(fence, now: start + .seconds(601)))
        #expect(!watch.holds(.none, now: start))
    }
}
