/// The topics of the pipeline contract.
public enum ArtpipeTopic {
    public static let pageRequests = "artpipe.page-requests"
    public static let pages = "artpipe.pages"
    public static let thumbnails = "artpipe.thumbnails"
    public static let deadLetters = "artpipe.dead-letters"
    /// Completed harvests of versioned sources, one per query: compacted.
    public static let harvests = "artpipe.harvests"

    /// Page requests that failed for the moment, by growing delay: FetchWorker reads them
    /// again when they are due (see ``RetryState``).
    public static let pageRequestRetries = (1...3).map { "\(pageRequests).retry-\($0)" }

    /// Pages with images that failed for the moment (a throttled or unreachable image host),
    /// by growing delay: ThumbWorker reads them again when they are due.
    public static let pageRetries = (1...3).map { "\(pages).retry-\($0)" }

    /// Every topic the pipeline uses, in pipeline order.
    public static let all =
        [pageRequests] + pageRequestRetries + [pages] + pageRetries + [thumbnails, deadLetters, harvests]

    /// Topic settings beyond the cluster's defaults, for `artpipe topics create`.
    ///
    /// Pages and thumbnails are keyed by page id and the index wants the latest message of each
    /// page id: compacted, a rebuild from Kafka sees every page however old, where the broker's
    /// default retention (7 days on Apache Kafka) would drop pages silently.
    public static let settings: [String: [String: String]] = [
        pages: ["cleanup.policy": "compact"], thumbnails: ["cleanup.policy": "compact"],
        harvests: ["cleanup.policy": "compact"],
    ]
}
