/// The partitions one stage held at a moment, each with the assignment it was held under, and
/// the newest assignment made by then. State kept under a later assignment is newer than this
/// picture: a round that took the picture before awaiting the broker must not let it go.
package struct StageAssignments: Sendable, Equatable {
    /// By partition, the assignment it is held under.
    package let held: [Int: AssignmentEpoch]
    /// The newest assignment made when the picture was taken.
    package let latest: AssignmentEpoch

    package init(held: [Int: AssignmentEpoch], latest: AssignmentEpoch) {
        (self.held, self.latest) = (held, latest)
    }

    /// Whether what was kept of `partition` under `epoch` belongs to an assignment that had
    /// ended when the picture was taken (one made after it is not known to have ended).
    package func hasEnded(_ partition: Int, epoch: AssignmentEpoch) -> Bool {
        epoch <= latest && held[partition] != epoch
    }
}
