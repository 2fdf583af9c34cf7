import CKafka
import Logging

/// Which cluster answers, how many partitions each of some topics has, and where each partition
/// begins and ends as the brokers say (their ListOffsets answers): what a copy checks a state
/// kept on its own disk against before it reads only the changelogs' tails into it.
package struct KafkaTopicBounds: Sendable {
    /// The cluster's id, when the brokers give one.
    package let clusterID: String?
    /// Each topic's partitions' low and high watermarks, in partition order; a topic the
    /// cluster does not have is left out.
    package let partitions: [String: [(low: Int64, high: Int64)]]

    package init(clusterID: String?, partitions: [String: [(low: Int64, high: Int64)]]) {
        (self.clusterID, self.partitions) = (clusterID, partitions)
    }

    /// Asks the brokers, on a blocking thread, each question bounded by `timeout`.
    package static func read(
        _ topics: [String], configuration: KafkaClientConfiguration, timeout: Duration, logger: Logger
    ) async throws -> KafkaTopicBounds {
        let offsets = KafkaGroupOffsets(configuration: configuration, logger: logger)
        let milliseconds = timeout.timeoutMilliseconds
        return try await configuration.runBlocking {
            let client = try offsets.makeClient(group: "\(configuration.clientID)-bounds")
            let metadata = try client.metadata(timeoutMilliseconds: milliseconds)
            var partitions: [String: [(low: Int64, high: Int64)]] = [:]
            for topic in topics {
                guard let count = metadata.partitionsByTopic[topic] else { continue }
                partitions[topic] = try client.watermarks(
                    of: (0..<Int32(count)).map { KafkaTopicPartition(topic: topic, partition: $0) },
                    timeoutMilliseconds: milliseconds)
            }
            return KafkaTopicBounds(
                clusterID: client.clusterID(timeoutMilliseconds: milliseconds), partitions: partitions)
        }
    }
}
