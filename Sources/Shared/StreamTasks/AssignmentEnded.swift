import ArtpipeSupport

/// A restore begun under an assignment that has ended: a newer one's restore began first.
/// Passes: the partition's current assignment restores it.
package struct AssignmentEnded: ClassifiedError {
    package let epoch: AssignmentEpoch

    package init(_ epoch: AssignmentEpoch) {
        self.epoch = epoch
    }

    package var failureClass: FailureClass { .forNow(retryAfter: nil) }
    package var description: String { "the assignment (\(epoch)) ended before its restore began" }
}
