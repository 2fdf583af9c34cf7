import ArtpipeRuntime
import KafkaClient
import Logging
import PipelineContract

/// IndexWorker's handler: applies pages, thumbnails and failed page requests to the state
/// store. Nothing is produced; ``IndexWriterService`` writes the files.
package struct IndexMessageHandler: MessageHandler {
    package enum Input: Sendable {
        case page(Page)
        case thumbnails(PageThumbnails)
        case failedRequest(PageRequest, reason: String)
        /// A dead letter that is not a failed page request: it only moves the offset.
        case other
    }

    let store: IndexStateStore

    package init(store: IndexStateStore) {
        self.store = store
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> Input {
        try Self.input(of: message)
    }

    /// What a message of the index's inputs says (the pages stage reads them too).
    static func input(of message: KafkaConsumerMessage) throws -> Input {
        switch message.topic {
        case ArtpipeTopic.pages:
            return .page(try MessageCodec.decode(Page.self, from: message))
        case ArtpipeTopic.thumbnails:
            return .thumbnails(try MessageCodec.decode(PageThumbnails.self, from: message))
        default:
            // Dead letters: never poison here, or a bad one would go round forever.
            // A page request may have been dead-lettered from a retry topic, after its last retry.
            guard let source = message.headers.value(of: DeadLetter.sourceTopicHeader),
                PipelineStage.fetch.inputTopics.contains(source),
                let request = try? MessageCodec.decode(PageRequest.self, from: message)
            else { return .other }
            return .failedRequest(request, reason: message.headers.value(of: DeadLetter.errorHeader) ?? "unknown")
        }
    }

    package func handle(_ input: Input, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let producedAt = context.message.timestampMilliseconds
        store.apply(context.message, pageId: input.pageId) { inputs in
            switch input {
            case .page(let page): inputs.add(page, producedAt: producedAt)
            case .thumbnails(let thumbnails): inputs.add(thumbnails, producedAt: producedAt)
            case .failedRequest(let request, let reason):
                inputs.addFailure(request, reason: reason, producedAt: producedAt)
            case .other: break
            }
        }
        return []
    }
}

extension IndexMessageHandler.Input {
    /// The page id the input belongs to; none for a dead letter of another kind.
    var pageId: String? {
        switch self {
        case .page(let page): page.pageId
        case .thumbnails(let thumbnails): thumbnails.pageId
        case .failedRequest(let request, _): request.pageId
        case .other: nil
        }
    }
}
