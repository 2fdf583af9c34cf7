import ArtpipeSupport
import Foundation
import Logging
import Synchronization

/// Whether this process may still write for the partitions its consumer groups gave it.
///
/// A process that stopped running for a while (SIGSTOP, a paused VM, a machine starved of CPU)
/// may have been dropped from its groups meanwhile and its partitions given to another member,
/// and librdkafka tells it so only once it runs again and hears the coordinator's answer. A
/// watchdog thread notices the stall (its ticks, 100 ms apart, stop coming); from then until
/// the session timeout and a heartbeat interval have passed again, nothing is written: by then
/// librdkafka has either had a heartbeat answered under the member's generation (the
/// partitions are still its own) or revoked them as lost, which ends their leases. A writer
/// asks ``mayWrite`` before each write; one that runs on before the watchdog does sees its
/// ticks missing and waits too.
///
/// A stall is a gap longer than half of what the session allows beyond one heartbeat: shorter
/// gaps cannot make the coordinator drop a member whose heartbeats it had before the gap.
package final class GroupMembershipFence: Sendable {
    private let machine: Mutex<StateMachine>
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let tick: Duration
    private let logger: Logger
    /// How long a row may wait for its acknowledgement (`message.timeout.ms`): the session less
    /// a heartbeat. A row queued after the member's last heartbeat before a stall fails, at
    /// the latest, when the coordinator may end the session: never after a successor's.
    package let deliveryTimeout: Duration

    /// - Parameters:
    ///   - sessionTimeout: the groups' `session.timeout.ms`.
    ///   - heartbeatInterval: their `heartbeat.interval.ms`.
    package init(
        sessionTimeout: Duration, heartbeatInterval: Duration, tick: Duration = .milliseconds(100), logger: Logger
    ) {
        let stallLimit = max((sessionTimeout - heartbeatInterval) / 2, tick * 10)
        machine = Mutex(
            StateMachine(
                stallLimit: stallLimit, doubtFor: sessionTimeout + heartbeatInterval + .seconds(1),
                settleFor: heartbeatInterval + .seconds(1)))
        self.tick = tick
        self.logger = logger
        deliveryTimeout = max(sessionTimeout - heartbeatInterval, .seconds(1))
    }

    /// The fence of consumers configured as `client` is (librdkafka's defaults where it says
    /// nothing: a 45 s session, a 3 s heartbeat).
    package convenience init(client: KafkaClientConfiguration, logger: Logger) {
        let milliseconds = { (name: String, fallback: Int) in
            client.properties[name].flatMap { Int($0) }.map { max($0, 1) } ?? fallback
        }
        self.init(
            sessionTimeout: .milliseconds(milliseconds("session.timeout.ms", 45_000)),
            heartbeatInterval: .milliseconds(milliseconds("heartbeat.interval.ms", 3_000)), logger: logger)
    }

    /// A gap between the watchdog's ticks longer than this is a stall.
    package var stallLimit: Duration { machine.withLock { $0.stallLimit } }

    /// Starts the watchdog thread, once; it runs until ``stop()``.
    package func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: tick.seconds)
                observe(at: .now)
            }
        }
        thread.name = "membership-fence"
        thread.start()
    }

    /// Stops the watchdog: from then on only a doubt already begun fences.
    package func stop() {
        stopped.store(true, ordering: .releasing)
        machine.withLock { $0.stop() }
    }

    /// Whether a write for the groups' partitions may start now.
    package var mayWrite: Bool {
        machine.withLock { $0.mayWrite(at: .now) }
    }

    /// How many stalls began a doubt so far when a write may start now, nil when it may not,
    /// read together: a round of writes begun under nil writes nothing, begun under a number
    /// writes only while the count and the permission hold.
    package var writableRound: Int? {
        machine.withLock { $0.mayWrite(at: .now) ? $0.stalls : nil }
    }

    /// A consumer's rebalance callback began: a doubt does not end while one is under way.
    package func rebalanceBegan() {
        machine.withLock { $0.rebalanceBegan() }
    }

    /// A consumer's rebalance callback ended.
    package func rebalanceEnded() {
        machine.withLock { $0.rebalanceEnded(at: .now) }
    }

    /// A watchdog tick at `now`, logged when it begins or ends a doubt.
    package func observe(at now: ContinuousClock.Instant) {
        switch machine.withLock({ $0.tick(at: now) }) {
        case .doubt(let stalled, let until):
            logger.warning(
                "this process stalled long enough to have been dropped from its consumer groups: nothing is written until librdkafka has confirmed or revoked its partitions",
                metadata: ["stalled_ms": "\(stalled.milliseconds)", "fenced_ms": "\((until - now).milliseconds)"])
        case .cleared:
            logger.info("the stall's fence is over: writing again")
        case nil:
            break
        }
    }
}
