extension GroupMembershipFence {
    /// The fence's one state, changed only by ticks of its watchdog, so a test drives it with
    /// instants of its own choosing.
    package struct StateMachine: Sendable, Equatable {
        package enum State: Sendable, Equatable {
            /// No watchdog ticks yet: nothing is known of stalls, and nothing is fenced.
            case idle
            /// The process ran on without a stall since `lastTick`.
            case member(lastTick: ContinuousClock.Instant)
            /// The process stalled long enough to have been dropped from its groups: nothing is
            /// written until `until`, by when librdkafka has either had a heartbeat answered
            /// under its generation or revoked its partitions as lost, nor while a rebalance
            /// callback is under way (a lost revoke's drain, an assignment's start).
            case inDoubt(lastTick: ContinuousClock.Instant, until: ContinuousClock.Instant)
        }

        /// What the caller reports of a tick.
        package enum Action: Sendable, Equatable {
            /// A stall of `stalled` began a doubt (or lengthened one) lasting until `until`.
            case doubt(stalled: Duration, until: ContinuousClock.Instant)
            /// The doubt ended: the process may write again.
            case cleared
        }

        package private(set) var state: State = .idle
        /// How many doubts began: a round of writes that began under one number and meets
        /// another began before a stall, from a picture that may be stale.
        package private(set) var stalls = 0
        /// Rebalance callbacks under way in the process's consumers.
        package private(set) var rebalancing = 0
        /// A gap between ticks longer than this is a stall.
        package let stallLimit: Duration
        /// How long a stall's doubt lasts once the process runs again.
        package let doubtFor: Duration
        /// How long a doubt lasts at least after a rebalance callback ends: librdkafka learns a
        /// loss it could not act on during the callback at its next heartbeat.
        package let settleFor: Duration

        package init(stallLimit: Duration, doubtFor: Duration, settleFor: Duration = .zero) {
            (self.stallLimit, self.doubtFor, self.settleFor) = (stallLimit, doubtFor, settleFor)
        }

        /// A consumer's rebalance callback began.
        package mutating func rebalanceBegan() {
            rebalancing += 1
        }

        /// A consumer's rebalance callback ended at `now`: a doubt lasts a settling time more.
        package mutating func rebalanceEnded(at now: ContinuousClock.Instant) {
            rebalancing = max(rebalancing - 1, 0)
            if case .inDoubt(let last, let until) = state {
                state = .inDoubt(lastTick: last, until: max(until, now + settleFor))
            }
        }

        /// The watchdog ran at `now`.
        package mutating func tick(at now: ContinuousClock.Instant) -> Action? {
            switch state {
            case .idle:
                state = .member(lastTick: now)
                return nil
            case .member(let last):
                guard now - last <= stallLimit else { return doubt(stalled: now - last, at: now) }
                state = .member(lastTick: now)
                return nil
            case .inDoubt(let last, let until):
                guard now - last <= stallLimit else { return doubt(stalled: now - last, at: now) }
                guard now < until || rebalancing > 0 else {
                    state = .member(lastTick: now)
                    return .cleared
                }
                state = .inDoubt(lastTick: now, until: until)
                return nil
            }
        }

        /// Whether a write may start at `now`. A watchdog that has not ticked for longer than
        /// ``stallLimit`` is a stall not yet noticed (the writer ran on first): no.
        package func mayWrite(at now: ContinuousClock.Instant) -> Bool {
            switch state {
            case .idle: true
            case .member(let last): now - last <= stallLimit
            case .inDoubt: false
            }
        }

        /// The watchdog stopped (the process is shutting down, running on): nothing more is
        /// known of stalls, so nothing is fenced but a doubt already begun, which stays.
        package mutating func stop() {
            if case .member = state { state = .idle }
        }

        private mutating func doubt(stalled: Duration, at now: ContinuousClock.Instant) -> Action {
            let until = now + doubtFor
            state = .inDoubt(lastTick: now, until: until)
            stalls += 1
            return .doubt(stalled: stalled, until: until)
        }
    }
}
