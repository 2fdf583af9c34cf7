/// The topics of the pipeline contract.
public enum ArtpipeTopic {
    public static let pageRequests = "artpipe.page-requests"
    public static let pages = "artpipe.pages"
    public static let thumbnails = "artpipe.thumbnails"
    public static let deadLetters = "artpipe.dead-letters"

    /// Every topic the pipeline uses, in pipeline order.
    public static let all = [pageRequests, pages, thumbnails, deadLetters]
}
