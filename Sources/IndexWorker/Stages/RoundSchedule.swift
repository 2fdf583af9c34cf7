/// When the next publish round runs: ``ShardPublisherService`` asks between rounds, the
/// publisher tells what it knows (``Signals``), and the last round's outcome is recorded.
///
/// A round runs at the latest an interval after the last one ended, sooner when there is news
/// (the stages read something, or the shared files wait for a target), but never sooner after a
/// failed round: the store down is asked once an interval, not at every tick. Between rounds
/// the news is asked every tenth of the interval, and every 10 ms once the index is complete and
/// the last round wrote nothing or the shared files wait for a target, so a new page, whose path
/// to the manifest takes two rounds, waits at most 10 ms before each. A round that wrote files
/// waits a tenth of the interval: rounds every 10 ms would take the CPU the stages need.
struct RoundSchedule: Sendable {
    /// How the last round ended.
    enum LastRound: Sendable, Equatable {
        /// No round yet.
        case none
        /// It wrote or removed files.
        case wrote
        /// It wrote nothing: the output showed what the stages held.
        case atRest
        /// It failed for the moment.
        case failed
    }

    /// What the publisher knows of itself between rounds.
    struct Signals: Sendable, Equatable {
        /// The output's index was once complete: a round is then on a new page's path.
        var complete: Bool
        /// The shared files wait for the stages to reach a target.
        var aiming: Bool
    }

    /// The longest wait between rounds.
    let interval: Duration
    private(set) var last = LastRound.none

    init(interval: Duration) {
        self.interval = interval
    }

    mutating func record(_ last: LastRound) {
        self.last = last
    }

    /// Whether the next round should follow as soon as there is news.
    func followsSoon(_ signals: Signals) -> Bool {
        signals.complete && (last == .atRest || signals.aiming)
    }

    /// How long to wait before asking for news again.
    func tick(_ signals: Signals) -> Duration {
        followsSoon(signals) ? min(interval / 10, .milliseconds(10)) : interval / 10
    }

    /// Whether a round runs now, `waited` after the last one ended. `news` is asked only when
    /// it can change the answer: asking takes what the stages moved.
    func runsNow(waited: Duration, news: () -> Bool) -> Bool {
        waited >= interval || (last != .failed && news())
    }
}
