import Testing

@testable import IndexWorker

/// When the next publish round runs, without a publisher: the last round's outcome, the
/// publisher's signals, and the time waited.
@Suite("When a publish round runs")
struct RoundScheduleTests {
    let interval = Duration.seconds(1)

    @Test("a round runs on news, or once the interval passed without any; after a failure only at the interval")
    func runsOnNewsOrAtTheInterval() {
        var schedule = RoundSchedule(interval: interval)
        for last in [RoundSchedule.LastRound.none, .wrote, .atRest] {
            schedule.record(last)
            #expect(schedule.runsNow(waited: .milliseconds(50)) { true }, "\(last): news")
            #expect(!schedule.runsNow(waited: .milliseconds(50)) { false }, "\(last): no news")
            #expect(schedule.runsNow(waited: interval) { false }, "\(last): the interval passed")
        }
        schedule.record(.failed)
        var asked = 0
        #expect(
            !schedule.runsNow(waited: .milliseconds(50)) {
                asked += 1
                return true
            })
        #expect(asked == 0, "after a failure the news is not asked, so what the stages moved is kept for the round")
        #expect(schedule.runsNow(waited: interval) { false })
    }

    @Test(
        "news is asked every 10 ms once the index is complete and the last round wrote nothing or the shared files wait for a target; else every tenth of the interval"
    )
    func ticks() {
        var schedule = RoundSchedule(interval: interval)
        let soon = Duration.milliseconds(10)
        let tenth = interval / 10
        let cases: [(RoundSchedule.LastRound, complete: Bool, aiming: Bool, Duration)] = [
            (.atRest, true, false, soon), (.wrote, true, true, soon), (.failed, true, true, soon),
            (.wrote, true, false, tenth), (.failed, true, false, tenth), (.none, true, false, tenth),
            (.atRest, false, false, tenth), (.atRest, false, true, tenth),
        ]
        for (last, complete, aiming, expected) in cases {
            schedule.record(last)
            #expect(
                schedule.tick(.init(complete: complete, aiming: aiming)) == expected,
                "\(last), complete \(complete), aiming \(aiming)")
        }
        // An interval shorter than 100 ms asks every tenth of it.
        #expect(
            RoundSchedule(interval: .milliseconds(50)).tick(.init(complete: true, aiming: true)) == .milliseconds(5))
    }
}
