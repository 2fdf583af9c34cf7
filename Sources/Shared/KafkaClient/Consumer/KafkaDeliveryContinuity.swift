/// Checks that each message of a partition follows the last one delivered.
///
/// A message further on means either that fetched messages were lost on the way, or that the
/// log has a gap of its own: a compacted topic (artpipe.pages is one, on Kafka) or a producer's
/// transaction markers. Lost messages were seen twice: 952 offsets between two batches of a
/// partition paused and resumed during a rebalance (librdkafka 2.0.2, the embedded broker), and
/// 320 offsets between two batches, then 20 works lost without a word to a gap inside one batch
/// (librdkafka 2.16.0 on Tansu, at 4 million works). So every message is checked, not only a
/// batch's first. The messages before the gap are delivered and the poll loop fetches again
/// from the first missing offset. The seek that does it makes every message fetched before it
/// outdated, and librdkafka drops those instead of returning them, so each try counts a new
/// fetch, not a leftover one. A gap still there after ``refetchLimit`` tries is the log's: the
/// batch is delivered, the gap reported, and the partition is not checked again while this
/// lease holds it, so a compacted log costs its lease a couple of fetches, not a few per gap.
///
/// Only the consumer's poll thread touches it.
struct KafkaDeliveryContinuity: Sendable {
    /// What to do with a batch.
    enum Decision: Equatable, Sendable {
        case deliver
        /// Deliver the batch's first `delivering` messages, drop the rest and fetch again from `offset`.
        case refetch(from: Int64, delivering: Int)
        /// Deliver the batch; these offsets were never seen however often they were fetched.
        case deliverPastGap(missing: ClosedRange<Int64>)
    }

    static let refetchLimit = 2

    /// The offset of the last message handed to the application.
    private(set) var deliveredThrough: Int64?
    private var refetches: (from: Int64, count: Int)?
    /// Set once the log showed a gap of its own: its offsets need not be contiguous.
    private(set) var logHasGaps = false

    /// Decides for a batch of a partition's messages, by their offsets in the order they came,
    /// and remembers what it delivers.
    mutating func admit(_ offsets: [Int64]) -> Decision {
        var decision = Decision.deliver
        for (index, offset) in offsets.enumerated() {
            if !logHasGaps, let deliveredThrough, offset > deliveredThrough + 1 {
                let from = deliveredThrough + 1
                let tries = refetches?.from == from ? refetches?.count ?? 0 : 0
                if tries < Self.refetchLimit {
                    refetches = (from, tries + 1)
                    return .refetch(from: from, delivering: index)
                }
                logHasGaps = true
                decision = .deliverPastGap(missing: from...(offset - 1))
            }
            deliveredThrough = max(offset, deliveredThrough ?? offset)
        }
        refetches = nil
        return decision
    }
}
