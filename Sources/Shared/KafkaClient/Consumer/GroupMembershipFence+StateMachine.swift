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
            /// under its generation or revoked its partitions as lost.
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
        /// A gap between ticks longer than this is a stall.
        package let stallLimit: Duration
        /// How long a stall's doubt lasts once the process runs again.
        package let doubtFor: Duration

        package init(stallLimit: Duration, doubtFor: Duration) {
            (self.stallLimit, self.doubtFor) = (stallLimit, doubtFor)
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
                guard now < until else {
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
            return .doubt(stalled: stalled, until: until)
        }
    }
}
