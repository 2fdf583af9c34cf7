/// The pipeline's consumer groups and the topics each one reads.
public enum ArtpipeGroup {
    public static let fetch = "artpipe-fetch"
    public static let thumb = "artpipe-thumb"
    public static let index = "artpipe-index"

    public static let all = [fetch, thumb, index]

    /// The topics a group of the pipeline subscribes to; nil for a group artpipe does not run.
    public static func topics(of group: String) -> [String]? {
        switch group {
        case fetch: [ArtpipeTopic.pageRequests]
        case thumb: [ArtpipeTopic.pages]
        case index: [ArtpipeTopic.pages, ArtpipeTopic.thumbnails, ArtpipeTopic.deadLetters]
        default: nil
        }
    }
}
