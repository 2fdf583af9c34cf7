import ArtpipeSupport
import KafkaClient
import Logging

/// What every command that talks to Kafka asks before it does any work: do the brokers answer
/// within `--connect-timeout`, and do the topics it needs exist. Either failure is a
/// ``ConfigurationError``: one line naming the problem, exit code 2 (README, "Configuration").
package enum KafkaBrokerCheck {
    /// The cluster's metadata, asked over `producer`'s connection within `timeout`.
    package static func metadata(
        producer: KafkaProducer, brokers: String, timeout: Duration
    ) async throws -> KafkaMetadata {
        do {
            return try await producer.metadata(timeout: timeout)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw unreachable(brokers: brokers, timeout: timeout, error: error)
        }
    }

    /// Asks the brokers with a producer of its own, shut down before it returns, and checks that
    /// `topics` exist. Returns the metadata they answered with.
    @discardableResult
    package static func check(
        client: KafkaClientConfiguration, topics: [String] = [], timeout: Duration, logger: Logger
    ) async throws -> KafkaMetadata {
        let producer: KafkaProducer
        do {
            producer = try KafkaProducer(configuration: client, logger: logger)
        } catch let error as KafkaError {
            throw ConfigurationError(error.message)
        }
        let answered: Result<KafkaMetadata, any Error>
        do {
            answered = .success(try await metadata(producer: producer, brokers: client.brokers, timeout: timeout))
        } catch {
            answered = .failure(error)
        }
        await producer.shutdown(timeout: .zero)
        let found = try answered.get()
        if let missing = missingTopics(topics, in: found, brokers: client.brokers) { throw missing }
        return found
    }

    /// The error of brokers that did not answer in time.
    package static func unreachable(brokers: String, timeout: Duration, error: any Error) -> ConfigurationError {
        ConfigurationError("cannot reach Kafka brokers at \(brokers) within \(timeout.seconds)s: \(error)")
    }

    /// The error of topics the brokers do not have, naming them; nil when every one exists.
    package static func missingTopics(
        _ topics: [String], in metadata: KafkaMetadata, brokers: String
    ) -> ConfigurationError? {
        let missing = topics.filter { metadata.partitionsByTopic[$0] == nil }
        guard !missing.isEmpty else { return nil }
        return ConfigurationError(
            "topic \(missing.joined(separator: ", ")) does not exist on \(brokers); create it with `artpipe topics create`"
        )
    }
}
