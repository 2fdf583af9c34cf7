/// Checks that each message of a partition follows the last one delivered, inside a batch as
/// well as from one batch to the next.
///
/// An offset further on means either that a fetch lost messages on the way, or that the log has
/// a gap of its own: a compacted topic (artpipe.pages is one, on Kafka) or a producer's
/// transaction markers. Fetches lost messages between batches (librdkafka 2.0.2 on the
/// embedded broker, a partition paused and resumed in a rebalance) and inside them (Tansu with
/// librdkafka 2.16.0: docs/benchmarks.md). A batch with a hole anywhere is dropped whole and the
/// partition fetched again from right after the last message delivered, so nothing is
/// delivered in part. The seek that does it makes every message fetched before it outdated, and
/// librdkafka drops those, so each try counts a new fetch, not a leftover one. A hole that a
/// fetch again fills is what is worth a warning. One still there after ``refetchLimit`` tries
/// is the log's: the batch is delivered, the hole named, and the partition is not checked again
/// while this lease holds it, so a compacted log costs its lease a couple of fetches.
///
/// Only the consumer's poll thread touches it.
struct KafkaDeliveryContinuity: Sendable {
    /// What to do with a batch.
    enum Decision: Equatable, Sendable {
        case deliver
        /// Drop the batch and fetch again from `offset`; `missing` is the first hole seen.
        case refetch(from: Int64, missing: ClosedRange<Int64>)
        /// Deliver the batch: it holds the offsets `missing` that an earlier fetch skipped,
        /// messages that would have been lost.
        case deliverRefilled(missing: ClosedRange<Int64>)
        /// Deliver the batch; these offsets were never seen however often they were fetched.
        case deliverPastGap(missing: ClosedRange<Int64>)
    }

    static let refetchLimit = 2

    /// The offset of the last message handed to the application.
    private(set) var deliveredThrough: Int64?
    private var refetches: (from: Int64, count: Int, missing: ClosedRange<Int64>)?
    /// Set once the log showed a gap of its own: its offsets need not be contiguous.
    private(set) var logHasGaps = false

    /// Decides for a batch of a partition's messages, given their offsets in the order they
    /// came, and remembers it as delivered unless it is to be fetched again. The first batch of
    /// a lease may start anywhere; its messages must still follow each other.
    mutating func admit(_ offsets: some Collection<Int64>) -> Decision {
        guard let first = offsets.first, let last = offsets.max() else { return .deliver }
        var decision = Decision.deliver
        // A batch fetched again must start where the fetch again did, even a lease's first.
        let expectedAfter = deliveredThrough ?? refetches.map { $0.from - 1 }
        if !logHasGaps, let missing = Self.firstHole(in: offsets, after: expectedAfter) {
            let from = expectedAfter.map { $0 + 1 } ?? first
            let tries = refetches?.from == from ? refetches?.count ?? 0 : 0
            if tries < Self.refetchLimit {
                refetches = (from, tries + 1, missing)
                return .refetch(from: from, missing: missing)
            }
            logHasGaps = true
            decision = .deliverPastGap(missing: missing)
        } else if let refetches, last >= refetches.missing.lowerBound {
            // No hole where a fetch before showed one: the offsets are delivered this time.
            decision = .deliverRefilled(missing: refetches.missing)
        }
        refetches = nil
        deliveredThrough = max(last, deliveredThrough ?? last)
        return decision
    }

    /// The first run of offsets skipped: after `deliveredThrough`, or between two messages.
    /// Messages at or below the highest offset seen (delivered again after a seek back) are
    /// no hole.
    static func firstHole(in offsets: some Sequence<Int64>, after deliveredThrough: Int64?) -> ClosedRange<Int64>? {
        var highest = deliveredThrough
        for offset in offsets {
            if let highest, offset > highest + 1 { return (highest + 1)...(offset - 1) }
            highest = max(offset, highest ?? offset)
        }
        return nil
    }
}
