/// The topics of the pipeline contract.
package enum ArtpipeTopic {
    package static let pageRequests = "artpipe.page-requests"
    package static let pages = "artpipe.pages"
    package static let thumbnails = "artpipe.thumbnails"
    package static let deadLetters = "artpipe.dead-letters"
    /// Completed harvests of versioned sources, one per query: compacted.
    package static let harvests = "artpipe.harvests"

    /// Page requests that failed for the moment, by growing delay: FetchWorker reads them
    /// again when they are due (see ``RetryState``).
    package static let pageRequestRetries = (1...3).map { "\(pageRequests).retry-\($0)" }

    /// Pages with images that failed for the moment (a throttled or unreachable image host),
    /// by growing delay: ThumbWorker reads them again when they are due.
    package static let pageRetries = (1...3).map { "\(pages).retry-\($0)" }

    /// The index worker's own topics (docs/architecture.md, "The index at scale"), as a Kafka
    /// Streams application's internal topics are its own: A's changelog, keyed by page id;
    /// rows of works by page, partitioned by work key (A to B); B's changelog, one row per work,
    /// partitioned as B's input; works keyed by work, partitioned by artist shard (B to C, and
    /// C's changelog).
    package static let indexPages = "artpipe.index-pages"
    package static let indexWorks = "artpipe.index-works"
    package static let indexWorksState = "artpipe.index-works-state"
    package static let indexArtists = "artpipe.index-artists"
    package static let index = [indexPages, indexWorks, indexWorksState, indexArtists]

    /// Every topic the pipeline uses, in pipeline order.
    package static let all =
        [pageRequests] + pageRequestRetries + [pages] + pageRetries + [thumbnails, deadLetters, harvests] + index

    /// Topic settings beyond the cluster's defaults, for `artpipe topics create`.
    ///
    /// Pages and thumbnails are keyed by page id and the index wants the latest message of each
    /// page id: compacted, a rebuild from Kafka sees every page however old, where the broker's
    /// default retention (7 days on Apache Kafka) would drop pages silently.
    package static let settings: [String: [String: String]] = [
        pages: ["cleanup.policy": "compact"], thumbnails: ["cleanup.policy": "compact"],
        harvests: ["cleanup.policy": "compact"], indexPages: ["cleanup.policy": "compact"],
        indexWorks: ["cleanup.policy": "compact"], indexWorksState: ["cleanup.policy": "compact"],
        indexArtists: ["cleanup.policy": "compact"],
    ]
}
