/// What a conditional write expects at its path (S3's `If-None-Match: *` and `If-Match`): the
/// version it last wrote or read there, or nothing. A writer that lost what it writes to another
/// finds the other's version there, and its write is refused (``OutputConflict``) rather than
/// put back what the other replaced.
package enum OutputCondition: Sendable, Hashable {
    /// Nothing is there.
    case absent
    /// This version is there.
    case version(OutputVersion)

    /// Whether `found`, the version at the path now (nil: nothing), meets the condition.
    package func holds(for found: OutputVersion?) -> Bool {
        switch self {
        case .absent: found == nil
        case .version(let expected): found == expected
        }
    }
}
