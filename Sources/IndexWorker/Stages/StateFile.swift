import KafkaClient
import Logging
import PipelineContract

/// One of the three store files in a copy's state folder, with the changelog its rows are a
/// function of: what a checkpoint (``StoreCheckpoint``) is written for and checked against.
package enum StateFile: String, CaseIterable, Sendable {
    /// The pages stage's entries (``PageEntryFile``), from `artpipe.index-pages`.
    case pages = "pages.sqlite"
    /// The works stage's states (``WorkStore``), from `artpipe.index-works-state`.
    case works = "works.sqlite"
    /// The artists stage's lines (``ShardStates``), from its input `artpipe.index-artists`.
    case lines = "lines.sqlite"

    /// The file's name in the state folder.
    package var name: String { rawValue }

    /// The three changelogs' bounds and the cluster's id (``KafkaTopicBounds``); nil, said in the
    /// log with `consequence`, when the brokers do not answer: no checkpoint is then trusted.
    static func changelogBounds(
        kafka: KafkaClientConfiguration, timeout: Duration, consequence: String, logger: Logger
    ) async -> KafkaTopicBounds? {
        do {
            return try await KafkaTopicBounds.read(
                allCases.map(\.topic), configuration: kafka, timeout: timeout, logger: logger)
        } catch {
            logger.warning(
                "the brokers did not say where the changelogs end: \(consequence)", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// The changelog its checkpoint's offsets are of.
    package var topic: String {
        switch self {
        case .pages: ArtpipeTopic.indexPages
        case .works: ArtpipeTopic.indexWorksState
        case .lines: ArtpipeTopic.indexArtists
        }
    }
}
