/// Checks that each batch of a partition starts right after the last one delivered.
///
/// A batch that starts further on means either that librdkafka dropped fetched messages while
/// moving its position past them (seen once in a full test run: 952 offsets of a partition
/// paused and resumed during a rebalance, librdkafka 2.0.2, on the embedded broker), or that
/// the log has a gap of its own: a compacted topic (artpipe.pages is one, on Kafka) or a
/// producer's transaction markers. The poll loop then fetches again from the first missing
/// offset. The seek that does it makes every message fetched before it outdated, and librdkafka
/// drops those instead of returning them, so each try counts a new fetch, not a leftover one.
/// A gap still there after ``refetchLimit`` tries is the log's: the batch is delivered,
/// the gap reported, and the partition is not checked again while this lease holds it, so a
/// compacted log costs its lease a couple of fetches, not a few per gap.
///
/// Only the consumer's poll thread touches it.
struct KafkaDeliveryContinuity: Sendable {
    /// What to do with a batch.
    enum Decision: Equatable, Sendable {
        case deliver
        /// Drop the batch and fetch again from `offset`.
        case refetch(from: Int64)
        /// Deliver the batch; these offsets were never seen however often they were fetched.
        case deliverPastGap(missing: ClosedRange<Int64>)
    }

    static let refetchLimit = 2

    /// The offset of the last message handed to the application.
    private(set) var deliveredThrough: Int64?
    private var refetches: (from: Int64, count: Int)?
    /// Set once the log showed a gap of its own: its offsets need not be contiguous.
    private(set) var logHasGaps = false

    /// Decides for a batch of offsets `first…last`, and remembers it as delivered unless refetched.
    mutating func admit(first: Int64, last: Int64) -> Decision {
        var decision = Decision.deliver
        if !logHasGaps, let deliveredThrough, first > deliveredThrough + 1 {
            let from = deliveredThrough + 1
            let tries = refetches?.from == from ? refetches?.count ?? 0 : 0
            if tries < Self.refetchLimit {
                refetches = (from, tries + 1)
                return .refetch(from: from)
            }
            logHasGaps = true
            decision = .deliverPastGap(missing: from...(first - 1))
        }
        refetches = nil
        deliveredThrough = max(last, deliveredThrough ?? last)
        return decision
    }
}
