/// The pipeline's three workers: each one's name (in logs, metrics and dead letters), its
/// consumer group and the topics it reads. Every command takes these names from here.
package enum PipelineStage: String, CaseIterable, Sendable {
    case fetch
    case thumb
    case index

    /// The name in logs, metrics and the dead letters' `artpipe-worker` header.
    package var workerName: String { rawValue }

    /// The consumer group every instance of this worker joins.
    package var groupID: String { "artpipe-\(rawValue)" }

    /// The topics the group subscribes to.
    package var inputTopics: [String] {
        switch self {
        case .fetch: [ArtpipeTopic.pageRequests] + ArtpipeTopic.pageRequestRetries
        case .thumb: [ArtpipeTopic.pages] + ArtpipeTopic.pageRetries
        case .index: [ArtpipeTopic.pages, ArtpipeTopic.thumbnails, ArtpipeTopic.deadLetters]
        }
    }

    /// The topics where it puts messages that failed for the moment, shortest delay first;
    /// empty when it retries in place.
    package var retryTopics: [String] {
        switch self {
        case .fetch: ArtpipeTopic.pageRequestRetries
        case .thumb: ArtpipeTopic.pageRetries
        case .index: []
        }
    }

    /// The stage whose consumer group this is; nil for a group artpipe does not run.
    package init?(groupID: String) {
        guard let stage = Self.allCases.first(where: { $0.groupID == groupID }) else { return nil }
        self = stage
    }

    /// Every stage's group, in pipeline order.
    package static var groupIDs: [String] { allCases.map(\.groupID) }
}
