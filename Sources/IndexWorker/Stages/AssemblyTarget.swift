/// What the shared files wait for before they show a set of page summaries: the works stage
/// having read every row those pages wrote (their ``PagesSummary/worksEnd``), then every
/// artist shard's summary having read what `artpipe.index-artists` held at that moment. Kept
/// from round to round, so a busy pipeline moves toward it instead of sampling a newer one.
struct AssemblyTarget: Sendable {
    let pages: [PagesSummary]
    /// The page summaries' sequence numbers, as read with them.
    let pageVersions: [String: Int]
    /// The highest end of `artpipe.index-works` the page summaries name, per partition; nil
    /// while one names none.
    let worksEnd: [Int64]?
    /// The ends of `artpipe.index-artists` once the works stage passed ``worksEnd``.
    var artistsEnd: [Int64]?

    init(pages: [PagesSummary], versions: SummaryVersions) {
        self.pages = pages
        pageVersions = versions.sequences.filter { $0.key.hasPrefix(IndexSummaries.pagesFolder) }
        let ends = pages.map(\.worksEnd)
        if let first = ends.first, let count = first?.count, ends.allSatisfy({ $0?.count == count }) {
            worksEnd = (0..<count).map { partition in ends.map { $0![partition] }.max()! }
        } else {
            worksEnd = nil
        }
    }

    /// Every shard's summary has read past ``artistsEnd``.
    func isReached(by shards: [ShardSummary]) -> Bool {
        guard let artistsEnd else { return false }
        return shards.allSatisfy { shard in
            shard.shard < artistsEnd.count && (shard.position ?? -1) >= artistsEnd[shard.shard]
        }
    }

    /// The versions the shared files are built from: these page summaries, the shards as read now.
    func versions(with read: SummaryVersions) -> SummaryVersions {
        var versions = read
        for key in versions.sequences.keys where key.hasPrefix(IndexSummaries.pagesFolder) {
            versions.sequences[key] = pageVersions[key]
        }
        return versions
    }
}
