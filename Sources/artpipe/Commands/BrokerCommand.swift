import ArgumentParser
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import KafkaClient
import Logging
import PipelineContract
import ServiceLifecycle

/// `artpipe broker`: the embedded development broker.
struct BrokerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broker",
        abstract: "Run an embedded development Kafka broker (librdkafka's mock cluster) on 127.0.0.1.",
        discussion: """
            Creates the pipeline's topics, prints "bootstrap: HOST:PORT" and runs until SIGINT or SIGTERM.
            It keeps about 5 MiB per partition and does not enforce transactions: for development and tests only.
            """)

    @Option(help: "Partitions of each pipeline topic.")
    var partitions: Int = 6

    @Option(help: "Also write the bootstrap address to this file (written whole, then renamed into place).")
    var bootstrapFile: String?

    @Option(help: "Log level.")
    var logLevel: String = "info"

    func validate() throws {
        guard partitions >= 1 else { throw ValidationError("--partitions must be at least 1") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level '\(logLevel)' is not a log level")
        }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: Logger.Level(rawValue: logLevel) ?? .info)
        let logger = Logger(label: "artpipe.broker")
        let broker = try EmbeddedBroker(logger: logger)
        for topic in ArtpipeTopic.all {
            try broker.createTopic(topic, partitions: partitions)
        }
        let line = "bootstrap: \(broker.bootstrapServers)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        if let bootstrapFile {
            try AtomicFile.write(Data(broker.bootstrapServers.utf8), to: URL(fileURLWithPath: bootstrapFile))
        }
        logger.info(
            "embedded broker running",
            metadata: ["kafka.bootstrap": "\(broker.bootstrapServers)", "kafka.partitions": "\(partitions)"])
        let group = ServiceGroup(
            services: [EmbeddedBrokerService(broker: broker)], gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        try await group.run()
        logger.info("embedded broker stopped")
    }
}

/// Keeps the embedded broker up until graceful shutdown.
struct EmbeddedBrokerService: Service {
    let broker: EmbeddedBroker

    func run() async throws {
        try? await gracefulShutdown()
        withExtendedLifetime(broker) {}
    }
}
