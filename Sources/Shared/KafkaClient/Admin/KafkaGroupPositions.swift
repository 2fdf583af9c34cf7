import Logging
import Synchronization

/// Where consumer groups stand on their topics, asked again and again over clients kept open
/// (one per group): for a service that watches other groups' progress every few hundred
/// milliseconds, where ``KafkaGroupOffsets`` opens a client for each question.
package final class KafkaGroupPositions: Sendable {
    private let offsets: KafkaGroupOffsets
    private let clients = Mutex<[String: RDKafkaClient]>([:])

    package init(configuration: KafkaClientConfiguration, logger: Logger) {
        offsets = KafkaGroupOffsets(configuration: configuration, logger: logger)
    }

    /// Committed offset and watermarks of every partition of `topics` for `group`.
    package func positions(group: String, topics: [String]) async throws -> [KafkaOffsetResetPlan.Position] {
        // Making a client blocks too (librdkafka starts its threads): off the cooperative pool.
        try await offsets.configuration.runBlocking { [self] in
            let client = try clients.withLock { clients in
                if let client = clients[group] { return client }
                let client = try offsets.makeClient(group: group)
                clients[group] = client
                return client
            }
            return try KafkaGroupOffsets.positions(of: topics, client: client, timeout: offsets.timeoutMilliseconds)
        }
    }
}
