import KafkaClient
import PipelineContract

/// What a message of the index's inputs says: a page, a page's thumbnails, or a page request
/// that failed for good (a dead letter of the fetch stage).
package enum IndexInput: Sendable {
    case page(Page)
    case thumbnails(PageThumbnails)
    case failedRequest(PageRequest, reason: String)
    /// A dead letter that is not a failed page request: it only moves the offset.
    case other

    /// Reads a message of `artpipe.pages`, `artpipe.thumbnails` or `artpipe.dead-letters`.
    package init(_ message: KafkaConsumerMessage) throws {
        switch message.topic {
        case ArtpipeTopic.pages:
            self = .page(try MessageCodec.decode(Page.self, from: message))
        case ArtpipeTopic.thumbnails:
            self = .thumbnails(try MessageCodec.decode(PageThumbnails.self, from: message))
        default:
            // Dead letters: never poison here, or a bad one would go round forever.
            // A page request may have been dead-lettered from a retry topic, after its last retry.
            guard let source = message.headers.value(of: DeadLetter.sourceTopicHeader),
                PipelineStage.fetch.inputTopics.contains(source),
                let request = try? MessageCodec.decode(PageRequest.self, from: message)
            else {
                self = .other
                return
            }
            self = .failedRequest(request, reason: message.headers.value(of: DeadLetter.errorHeader) ?? "unknown")
        }
    }
}
