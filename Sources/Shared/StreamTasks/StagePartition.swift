/// One partition of one stage on this copy, from its assignment until it is revoked: the one
/// place its life is kept (Kafka Streams' `Task.State`). Changed only by its events, each a
/// `mutating func`; ``StageProgress`` keeps one per partition held, under its lock, and drops it
/// when the partition is revoked (anything kept under its ``epoch`` is then older than the next
/// assignment's).
///
/// ```
/// assigned(epoch) ─► restoring ── restore failed ──► held(reason) ── restore again ──► restoring
///                        │ restored
///                        ▼
///                   catchingUp ── inputs read to where they stood at the assignment ──► ready
/// ```
package struct StagePartition: Sendable, Equatable {
    package enum State: Sendable, Equatable {
        /// Its store is being read back from its changelog: nothing of it is handled yet.
        case restoring
        /// Its last restore failed (`reason`): it waits, and is restored again after a pause. Never
        /// read as restored.
        case held(reason: String)
        /// Restored; its inputs are not yet read to where they stood at the assignment, so what it
        /// holds may be less than its last owner published.
        case catchingUp
        /// Restored and read to where it stood at the assignment: it may publish and be summarised.
        case ready
    }

    /// The assignment it is held under.
    package let epoch: AssignmentEpoch
    package private(set) var state: State
    /// How far each topic it reads is read, against where it ended at the assignment.
    package private(set) var readiness: PartitionReadiness
    /// By topic, the offset its group may commit (one past the last message done with) under
    /// this assignment: from where the consumer started, what was before it not there to do.
    package private(set) var settled: [String: Int64]

    /// Assigned under `epoch`: `readiness` says where each topic ended then and where the
    /// consumer starts it; `settled`, what is done with at the start.
    package init(epoch: AssignmentEpoch, readiness: PartitionReadiness, settled: [String: Int64] = [:]) {
        (self.epoch, self.readiness, self.settled, state) = (epoch, readiness, settled, .restoring)
    }

    /// Its store is restored.
    package mutating func restored() {
        switch state {
        case .restoring, .held: state = readiness.isReady ? .ready : .catchingUp
        case .catchingUp, .ready: break
        }
    }

    /// Its restore failed: held until one succeeds.
    package mutating func restoreFailed(_ reason: String) {
        switch state {
        case .restoring, .held: state = .held(reason: reason)
        case .catchingUp, .ready: break
        }
    }

    /// A restore begins again after one failed.
    package mutating func restoring() {
        if case .held = state { state = .restoring }
    }

    /// `topic` is read up to `position` (one past the last offset handled).
    package mutating func read(_ topic: String, upTo position: Int64) {
        readiness.advance(topic, to: position)
        if state == .catchingUp, readiness.isReady { state = .ready }
    }

    /// The messages of `topic` up to `position` are done with.
    package mutating func settle(_ topic: String, upTo position: Int64) {
        settled[topic] = max(settled[topic] ?? position, position)
    }

    /// Whether its store is restored (it may be handled).
    package var isRestored: Bool { state == .catchingUp || state == .ready }

    package var isReady: Bool { state == .ready }
}
