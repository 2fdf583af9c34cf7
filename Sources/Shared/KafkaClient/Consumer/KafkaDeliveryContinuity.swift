/// Checks that each batch of a partition starts right after the last one delivered.
///
/// Our topics have no transactions and no compaction, so offsets are contiguous: a batch that
/// starts further on means librdkafka dropped fetched messages while moving its position past
/// them (once in a full test run, 952 offsets of a partition paused and resumed during a
/// rebalance, with librdkafka 2.0.2). The poll loop then fetches again from the first missing
/// offset. A gap that comes back after ``refetchLimit`` tries is real (a producer's transaction
/// markers, a compacted or expired log): the batch is delivered and the gap reported.
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

    static let refetchLimit = 3

    /// The offset of the last message handed to the application.
    private(set) var deliveredThrough: Int64?
    private var refetches: (from: Int64, count: Int)?

    /// Decides for a batch of offsets `first…last`, and remembers it as delivered unless refetched.
    mutating func admit(first: Int64, last: Int64) -> Decision {
        var decision = Decision.deliver
        if let deliveredThrough, first > deliveredThrough + 1 {
            let from = deliveredThrough + 1
            let tries = refetches?.from == from ? refetches?.count ?? 0 : 0
            if tries < Self.refetchLimit {
                refetches = (from, tries + 1)
                return .refetch(from: from)
            }
            decision = .deliverPastGap(missing: from...(first - 1))
        }
        refetches = nil
        deliveredThrough = max(last, deliveredThrough ?? last)
        return decision
    }
}
