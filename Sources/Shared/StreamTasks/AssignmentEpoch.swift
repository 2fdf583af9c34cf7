/// Which assignment of a stage's partitions something was begun or kept under. Each assignment
/// the stage's consumer hears gets a newer epoch, so state kept, a restore begun or a picture
/// taken under an assignment that has ended is told apart from the current one's.
package struct AssignmentEpoch: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let value: Int

    package init(_ value: Int) {
        self.value = value
    }

    /// Older than every assignment: what a message of a partition no longer held is handled
    /// under, so that nothing it leaves is taken for the current assignment's.
    package static let none = AssignmentEpoch(0)

    package static func < (lhs: AssignmentEpoch, rhs: AssignmentEpoch) -> Bool {
        lhs.value < rhs.value
    }

    package var description: String { "epoch \(value)" }
}
