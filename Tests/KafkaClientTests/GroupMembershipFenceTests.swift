import ArtpipeTestKit
import KafkaClient
import Testing

/// ``GroupMembershipFence``'s rule, driven by instants of the test's own: a stall past the
/// limit fences every write until the session and a heartbeat have passed again.
@Suite("The fence of a process that stalled")
struct GroupMembershipFenceTests {
    typealias Machine = GroupMembershipFence.StateMachine
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test("ticks closer than the limit keep writes open; one gap past it fences them until the doubt ends")
    func stallFencesUntilTheDoubtEnds() {
        var machine = Machine(stallLimit: .seconds(3), doubtFor: .seconds(7))
        #expect(machine.mayWrite(at: at(0)), "no watchdog yet: nothing known, nothing fenced")
        #expect(machine.tick(at: at(0)) == nil)
        for tick in stride(from: 100, through: 2_000, by: 100) { #expect(machine.tick(at: at(tick)) == nil) }
        #expect(machine.mayWrite(at: at(2_050)))
        // Stopped for 12 s, past a 6 s session.
        #expect(machine.tick(at: at(14_000)) == .doubt(stalled: .seconds(12), until: at(21_000)))
        #expect(!machine.mayWrite(at: at(14_000)))
        for tick in stride(from: 14_100, to: 21_000, by: 100) {
            #expect(machine.tick(at: at(tick)) == nil)
            #expect(!machine.mayWrite(at: at(tick)))
        }
        #expect(machine.tick(at: at(21_000)) == .cleared)
        #expect(machine.mayWrite(at: at(21_000)))
    }

    @Test("a writer that runs on before the watchdog sees its ticks missing and does not write")
    func writerBeforeTheWatchdog() {
        var machine = Machine(stallLimit: .seconds(3), doubtFor: .seconds(7))
        _ = machine.tick(at: at(0))
        #expect(machine.mayWrite(at: at(3_000)))
        #expect(!machine.mayWrite(at: at(3_001)))
        #expect(!machine.mayWrite(at: at(60_000)))
    }

    @Test("a second stall during a doubt starts it again from its end")
    func stallDuringDoubt() {
        var machine = Machine(stallLimit: .seconds(3), doubtFor: .seconds(7))
        _ = machine.tick(at: at(0))
        #expect(machine.tick(at: at(5_000)) == .doubt(stalled: .seconds(5), until: at(12_000)))
        #expect(machine.tick(at: at(5_100)) == nil)
        #expect(machine.tick(at: at(10_000)) == .doubt(stalled: .milliseconds(4_900), until: at(17_000)))
        for tick in stride(from: 10_100, to: 17_000, by: 100) { #expect(machine.tick(at: at(tick)) == nil) }
        #expect(!machine.mayWrite(at: at(16_900)), "the first doubt's end passed, the second's not yet")
        #expect(machine.tick(at: at(17_000)) == .cleared)
    }

    @Test(
        "a doubt does not end while a rebalance callback is under way, nor before a heartbeat after it; stalls are counted"
    )
    func rebalanceHoldsTheDoubt() {
        var machine = Machine(stallLimit: .seconds(3), doubtFor: .seconds(7), settleFor: .milliseconds(1_500))
        _ = machine.tick(at: at(0))
        #expect(machine.stalls == 0)
        // A lost revoke whose drain waits on a handler, past the doubt's end.
        machine.rebalanceBegan()
        #expect(machine.tick(at: at(5_000)) == .doubt(stalled: .seconds(5), until: at(12_000)))
        #expect(machine.stalls == 1)
        for tick in stride(from: 5_100, through: 20_000, by: 100) { #expect(machine.tick(at: at(tick)) == nil) }
        #expect(!machine.mayWrite(at: at(20_000)))
        machine.rebalanceEnded(at: at(20_000))
        for tick in stride(from: 20_100, to: 21_500, by: 100) { #expect(machine.tick(at: at(tick)) == nil) }
        #expect(machine.tick(at: at(21_500)) == .cleared)
        // Outside a doubt a rebalance changes nothing.
        machine.rebalanceBegan()
        #expect(machine.tick(at: at(21_600)) == nil)
        #expect(machine.mayWrite(at: at(21_600)))
        machine.rebalanceEnded(at: at(21_700))
        #expect(machine.stalls == 1)
    }

    @Test("stopping the watchdog opens writes, but keeps a doubt already begun")
    func stopping() {
        var running = Machine(stallLimit: .seconds(3), doubtFor: .seconds(7))
        _ = running.tick(at: at(0))
        running.stop()
        #expect(running.mayWrite(at: at(60_000)))
        var doubting = Machine(stallLimit: .seconds(3), doubtFor: .seconds(7))
        _ = doubting.tick(at: at(0))
        _ = doubting.tick(at: at(5_000))
        doubting.stop()
        #expect(!doubting.mayWrite(at: at(60_000)))
    }

    @Test(
        "the stall limit follows the groups' settings: half of the session past a heartbeat"
    )
    func limitsFromSettings() {
        let tests = GroupMembershipFence(
            client: KafkaClientConfiguration(
                brokers: "127.0.0.1:9", properties: ["session.timeout.ms": "6000", "heartbeat.interval.ms": "500"]),
            logger: .test)
        #expect(tests.stallLimit == .milliseconds(2_750))
        #expect(tests.deliveryTimeout == .milliseconds(5_500))
        let defaults = GroupMembershipFence(
            client: KafkaClientConfiguration(brokers: "127.0.0.1:9"), logger: .test)
        #expect(defaults.stallLimit == .seconds(21))
        #expect(defaults.deliveryTimeout == .seconds(42))
    }

    @Test("ticks observed as the watchdog observes them: a stall fences the process")
    func observedStall() {
        let fence = GroupMembershipFence(
            sessionTimeout: .seconds(6), heartbeatInterval: .milliseconds(500), logger: .test)
        // Ticks ahead of the clock, so that no stall of the test's own can come between.
        let ahead = ContinuousClock.now + .seconds(1_000)
        fence.observe(at: ahead)
        #expect(fence.mayWrite)
        #expect(fence.writableRound == 0)
        fence.observe(at: ahead + .seconds(3))
        #expect(!fence.mayWrite)
        #expect(fence.writableRound == nil, "a round begun while fenced writes nothing")
    }
}
