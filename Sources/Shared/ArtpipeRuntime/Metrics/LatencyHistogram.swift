/// Log-linear histogram of durations in nanoseconds: 16 buckets per power of two, so a
/// percentile is within about 6% of the true value, in constant memory.
struct LatencyHistogram: Sendable {
    private static let subBuckets = 16
    private var counts = [Int](repeating: 0, count: 64 * subBuckets)
    private(set) var count = 0

    mutating func record(nanoseconds: Int64) {
        counts[Self.bucket(for: max(1, nanoseconds))] += 1
        count += 1
    }

    private static func bucket(for value: Int64) -> Int {
        let magnitude = 63 - value.leadingZeroBitCount
        guard magnitude >= 4 else { return Int(value) }
        let mantissa = Int(value >> (magnitude - 4)) & (subBuckets - 1)
        return magnitude * subBuckets + mantissa
    }

    private static func lowerBound(of bucket: Int) -> Int64 {
        let magnitude = bucket / subBuckets
        guard magnitude >= 4 else { return Int64(bucket) }
        return Int64(subBuckets + bucket % subBuckets) << (magnitude - 4)
    }

    /// The value at quantile `q` (0...1), or nil when empty.
    func percentile(_ q: Double) -> Int64? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((q * Double(count)).rounded(.up)))
        var seen = 0
        for (bucket, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += bucketCount
            if seen >= rank { return Self.lowerBound(of: bucket) }
        }
        return nil
    }
}
