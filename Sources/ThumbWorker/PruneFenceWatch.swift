import Foundation
import Synchronization

/// A thumb worker's view of the prune fence over time: when each running fence was first
/// seen, to tell a prune at work from one killed before it lowered its fence.
final class PruneFenceWatch: Sendable {
    private let firstSeen = Mutex<(fence: PruneFence, at: ContinuousClock.Instant)?>(nil)

    /// Whether `fence` holds pages back now: running, and renewed within
    /// ``PruneFence/abandonedAfter`` of this worker's first sight of it.
    func holds(_ fence: PruneFence, now: ContinuousClock.Instant = .now) -> Bool {
        guard fence.running else { return false }
        return firstSeen.withLock { seen in
            if seen?.fence != fence { seen = (fence, now) }
            return now - seen!.at < PruneFence.abandonedAfter
        }
    }
}
