import ArgumentParser
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import KafkaClient
import Logging
import NIOPosix

/// `--brokers` and `--kafka key=value`, with `ARTPIPE_BROKERS` and `ARTPIPE_KAFKA_<KEY>` from
/// the environment as fallbacks (`ARTPIPE_KAFKA_SECURITY_PROTOCOL=ssl` is `security.protocol`).
package struct KafkaOptions: ParsableArguments {
    @Option(help: "Kafka bootstrap servers, host:port[,host:port…] (env: ARTPIPE_BROKERS).")
    var brokers: String?

    @Option(
        name: .customLong("kafka"),
        help: ArgumentHelp(
            "A librdkafka property as key=value, for TLS, SASL or tuning; repeatable (env: ARTPIPE_KAFKA_<KEY>).",
            valueName: "key=value"))
    var properties: [String] = []

    @Option(
        help:
            "Seconds to wait for the brokers to answer at start; past it the command stops with one line and exit code 2."
    )
    var connectTimeout: Double = 10

    /// The longest `--connect-timeout`: a day, well inside the milliseconds librdkafka's calls take as a 32-bit number.
    static let maxConnectTimeout: Double = 86_400

    package init() {}

    package func validate() throws {
        guard connectTimeout > 0, connectTimeout <= Self.maxConnectTimeout else {
            throw ValidationError(
                "--connect-timeout must be above 0 and at most \(Int(Self.maxConnectTimeout)) seconds, "
                    + "got \(connectTimeout)")
        }
    }

    /// The client configuration, with flags taking precedence over the environment.
    ///
    /// - Parameter threadPool: where the clients run their blocking one-shot calls.
    package func clientConfiguration(
        threadPool: NIOThreadPool = .singleton, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> KafkaClientConfiguration {
        guard
            let brokers = (brokers ?? environment["ARTPIPE_BROKERS"]).map({ $0.trimmingCharacters(in: .whitespaces) }),
            !brokers.isEmpty
        else {
            throw ConfigurationError("--brokers is required (or set ARTPIPE_BROKERS)")
        }
        var merged: [String: String] = [:]
        let prefix = "ARTPIPE_KAFKA_"
        for (name, value) in environment where name.hasPrefix(prefix) && name.count > prefix.count {
            let key = name.dropFirst(prefix.count).lowercased().replacingOccurrences(of: "_", with: ".")
            merged[key] = value
        }
        for property in properties {
            guard let separator = property.firstIndex(of: "="), separator != property.startIndex else {
                throw ConfigurationError("--kafka expects key=value, got '\(property)'")
            }
            merged[String(property[..<separator])] = String(property[property.index(after: separator)...])
        }
        let configuration = KafkaClientConfiguration(
            brokers: brokers, properties: merged, clientID: "artpipe", threadPool: threadPool)
        do {
            try configuration.validate()
        } catch let error as KafkaError {
            throw ConfigurationError("--kafka: \(error.message)")
        }
        return configuration
    }

    package var connectTimeoutDuration: Duration { .seconds(fromFlag: connectTimeout) }

    /// Fails with one line (a ``ConfigurationError``, exit code 2) unless the brokers answer within
    /// `--connect-timeout` and hold `topics`: what every command that talks to Kafka asks before it
    /// does any work, as the workers' launcher does (``KafkaBrokerCheck``).
    package func checkBrokers(
        _ client: KafkaClientConfiguration, topics: [String] = [], logger: Logger
    ) async throws {
        try await KafkaBrokerCheck.check(
            client: client, topics: topics, timeout: connectTimeoutDuration, logger: logger)
    }

    /// ``clientConfiguration(threadPool:environment:)``, once ``checkBrokers(_:topics:logger:)`` passed.
    package func reachableClientConfiguration(
        topics: [String] = [], threadPool: NIOThreadPool = .singleton, logger: Logger,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> KafkaClientConfiguration {
        let client = try clientConfiguration(threadPool: threadPool, environment: environment)
        try await checkBrokers(client, topics: topics, logger: logger)
        return client
    }
}
