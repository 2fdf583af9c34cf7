import Foundation

/// What a health check needs to know about a consumer.
package struct KafkaConsumerHealth: Sendable {
    /// When the poll loop last went round (nil before it started).
    package let lastPoll: ContinuousClock.Instant?
    /// Since when the longest-stuck partition with work waiting has made no progress; nil when
    /// every partition with work moves (or waits on purpose).
    package let stalledSince: ContinuousClock.Instant?
    /// The group gave this member an assignment (possibly empty: more members than partitions).
    package let joined: Bool
    package let assignedPartitions: Int
    /// Brokers in state UP at the last statistics report; nil before the first.
    package let brokersUp: Int?
    /// Partitions assigned whose start the broker has not told (their committed, oldest or end
    /// offsets): held without leases, asked again; nil when none.
    package let held: HeldStarts?

    /// Partitions that wait for the broker to say where they start.
    package struct HeldStarts: Sendable, Equatable {
        package let partitions: Int
        /// When the longest-waiting of them was assigned.
        package let since: ContinuousClock.Instant
    }

    /// How long partitions may wait for their start before the worker counts as not ready: a
    /// broker slow for a moment at an assignment holds up no rolling update.
    package static let heldLimit = Duration.seconds(30)

    /// What the worker's endpoints say of partitions held; nil when none.
    package func heldNote(now: ContinuousClock.Instant = .now) -> String? {
        guard let held else { return nil }
        return "\(held.partitions) partition(s) held for \(Int((now - held.since).seconds)) s: "
            + "the broker has not said where they start (their committed, oldest or end offsets)"
    }

    /// Whether partitions have waited for their start past ``heldLimit``.
    package func isHeldTooLong(now: ContinuousClock.Instant = .now) -> Bool {
        held.map { now - $0.since > Self.heldLimit } ?? false
    }

    /// The poll loop went round within `stallLimit`.
    package func isPolling(within stallLimit: Duration, now: ContinuousClock.Instant = .now) -> Bool {
        guard let lastPoll else { return false }
        return now - lastPoll <= stallLimit
    }

    /// Every partition with work waiting finished a message within `limit`.
    package func isProgressing(within limit: Duration, now: ContinuousClock.Instant = .now) -> Bool {
        guard let stalledSince else { return true }
        return now - stalledSince <= limit
    }

    /// Joined its group, connected as far as the latest statistics tell, and no partition held
    /// past ``heldLimit``.
    package func isReady(now: ContinuousClock.Instant = .now) -> Bool {
        joined && (brokersUp ?? 1) > 0 && !isHeldTooLong(now: now)
    }

    /// Counts the real brokers (node id ≥ 0) in state "UP"; nil when `statistics` names none.
    static func brokersUp(_ statistics: KafkaStatistics) -> Int? {
        statistics.brokers?.filter { broker in
            (broker["nodeid"] as? NSNumber)?.intValue ?? -1 >= 0 && broker["state"] as? String == "UP"
        }.count
    }
}
