import Testing

@testable import IndexWorker

@Suite("Shards held back while a new page's rows come")
struct ShardHoldTests {
    let start = ContinuousClock.now
    let ready: Set<Int> = [0, 1, 2]

    @Test("every shard waits for rows still going through the works stage; none when nothing is awaited")
    func awaitingRows() {
        let hold = ShardHold(within: .seconds(5))
        #expect(hold.heldBack(ready, awaitingRows: true, artistsEnd: nil, position: { _ in 0 }, now: start) == ready)
        #expect(hold.heldBack(ready, awaitingRows: false, artistsEnd: nil, position: { _ in 0 }, now: start).isEmpty)
    }

    @Test("once the end is known, only the shards that have not read to it wait")
    func behindTheEnd() {
        let hold = ShardHold(within: .seconds(5))
        let positions: [Int: Int64] = [0: 10, 1: 5]
        let held = hold.heldBack(
            ready, awaitingRows: false, artistsEnd: [10, 20, 30], position: { positions[$0] }, now: start)
        // Shard 0 has read to its end; shard 2 has read nothing yet.
        #expect(held == [1, 2])
        // A shard past the end's partitions is not waited for.
        #expect(
            hold.heldBack([0, 5], awaitingRows: false, artistsEnd: [10], position: { _ in 0 }, now: start) == [0])
    }

    @Test("shards are held for at most the limit, counted anew after a round that held none")
    func limit() {
        let hold = ShardHold(within: .seconds(5))
        let held = { (seconds: Double, awaiting: Bool) in
            hold.heldBack(
                self.ready, awaitingRows: awaiting, artistsEnd: nil, position: { _ in 0 },
                now: self.start + .seconds(seconds))
        }
        #expect(held(0, true) == ready)
        #expect(held(4.9, true) == ready)
        // A pipeline never at rest: its shards are written as their rows come.
        #expect(held(5, true).isEmpty)
        #expect(held(60, true).isEmpty)
        // A round that held none; the next new page is held again, for its own limit.
        #expect(held(61, false).isEmpty)
        #expect(held(62, true) == ready)
        #expect(held(66.9, true) == ready)
        #expect(held(67, true).isEmpty)
    }
}
