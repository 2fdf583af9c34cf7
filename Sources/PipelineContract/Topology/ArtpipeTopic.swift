/// The topics of the pipeline contract.
public enum ArtpipeTopic {
    public static let pageRequests = "artpipe.page-requests"
    public static let pages = "artpipe.pages"
    public static let thumbnails = "artpipe.thumbnails"
    public static let deadLetters = "artpipe.dead-letters"
    /// Completed harvests of versioned sources, one per query: compacted.
    public static let harvests = "artpipe.harvests"

    /// Every topic the pipeline uses, in pipeline order.
    public static let all = [pageRequests, pages, thumbnails, deadLetters, harvests]

    /// Topic settings beyond the cluster's defaults, for `artpipe topics create`.
    public static let settings: [String: [String: String]] = [harvests: ["cleanup.policy": "compact"]]
}
