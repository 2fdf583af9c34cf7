import ArtpipeSupport
import KafkaClient
import Logging
import PipelineContract

extension HarvestMark {
    /// Where `crawl --since last` starts: the newest completed harvest of the same query (the
    /// same source and query, whatever its window) in `artpipe.harvests`; nil when there is none.
    /// The newest is the one harvested furthest, not the one published last: a slow harvest of an
    /// older window may complete after a newer one.
    package static func latest(
        of source: String, query: [String: String], client: KafkaClientConfiguration, timeout: Duration,
        logger: Logger
    ) async throws -> HarvestMark? {
        let key = harvestKey(source: source, query: query)
        let messages: [KafkaConsumerMessage]
        do {
            messages = try await KafkaTopicSnapshot.read(
                ArtpipeTopic.harvests, configuration: client, timeout: timeout, logger: logger)
        } catch let error as KafkaError {
            throw ConfigurationError("--since last: cannot read \(ArtpipeTopic.harvests): \(error.message)")
        }
        return messages.filter { $0.keyString == key }
            .compactMap { try? MessageCodec.decode(HarvestMark.self, from: $0) }
            .max { $0.harvestedThrough < $1.harvestedThrough }
    }
}
