import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import KafkaClient
import Logging
import PipelineContract

/// `artpipe topics`: topic administration on a real Kafka cluster.
struct TopicsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topics", abstract: "Manage the pipeline's topics.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Create the pipeline's topics that do not exist yet (CreateTopics; not on the embedded broker, which creates its own)."
        )

        @OptionGroup var kafka: KafkaOptions

        @Option(help: "Partitions per topic: the most instances a stage can usefully run.")
        var partitions: Int = 6

        @Option(help: "Replication factor.")
        var replication: Int = 1

        @Option(
            help: """
                min.insync.replicas of every topic: the replicas that must have a message before it counts as \
                written (the producers ask all of them). With --replication 3, 2 survives a broker. Default: the \
                broker's.
                """)
        var minInsyncReplicas: Int?

        func validate() throws {
            guard partitions >= 1 else { throw ValidationError("--partitions must be at least 1") }
            guard replication >= 1 else { throw ValidationError("--replication must be at least 1") }
            if let minInsyncReplicas, !(1...replication).contains(minInsyncReplicas) {
                throw ValidationError(
                    "--min-insync-replicas must be between 1 and --replication (\(replication)), got \(minInsyncReplicas)"
                )
            }
        }

        /// ``ArtpipeTopic/settings`` for every topic, with `--min-insync-replicas`.
        var settings: [String: [String: String]] {
            var settings = ArtpipeTopic.settings
            if let minInsyncReplicas {
                for topic in ArtpipeTopic.all {
                    settings[topic, default: [:]]["min.insync.replicas"] = "\(minInsyncReplicas)"
                }
            }
            return settings
        }

        func run() async throws {
            ArtpipeLogging.bootstrap(level: .warning)
            let logger = Logger(label: "artpipe.topics")
            // Brokers that do not answer are said so, not taken for one that lacks CreateTopics.
            let client = try await kafka.reachableClientConfiguration(logger: logger)
            do {
                let created = try await KafkaTopicAdmin.createTopics(
                    ArtpipeTopic.all, partitions: partitions, replicationFactor: replication,
                    settings: settings, configuration: client,
                    timeout: kafka.connectTimeoutDuration, logger: logger)
                for topic in ArtpipeTopic.all {
                    print("\(topic): \(created.contains(topic) ? "created" : "exists")")
                }
            } catch let error as KafkaError {
                // The embedded broker never answers CreateTopics: it makes its topics at start.
                let hint = error.message.contains("Timed out") ? " (`artpipe broker` creates its topics itself)" : ""
                throw ConfigurationError("topics create on \(client.brokers): \(error.message)\(hint)")
            }
        }
    }
}
