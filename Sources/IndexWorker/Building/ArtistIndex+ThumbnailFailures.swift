extension ArtistIndex {
    /// Failed thumbnails by reason, most frequent first.
    package var thumbnailFailures: [(reason: String, count: Int)] {
        var counts: [String: Int] = [:]
        for work in artists.flatMap(\.works) where work.thumbnailStatus == "failed" {
            counts[work.thumbnailReason ?? "unknown", default: 0] += 1
        }
        return counts.map { ($0.key, $0.value) }.sorted { ($1.count, $0.reason) < ($0.count, $1.reason) }
    }
}
