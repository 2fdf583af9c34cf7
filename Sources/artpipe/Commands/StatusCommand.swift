import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import IndexWorker
import KafkaClient
import Logging
import PipelineContract

/// `artpipe status`: where every page stands, and each group's lag.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show pages requested, fetched, thumbnailed, indexed and failed, and the lag of each consumer group.",
        discussion: """
            Reads the topics from outside the consumer groups (nothing changes) and, with --out, the index.
            A failed page is one a worker dead-lettered; its reason is the dead letter's artpipe-error header.
            A retrying page failed for the moment and waits on a retry topic: shown with its attempts,
            its next attempt's time and the last reason.
            """)

    @OptionGroup var kafka: KafkaOptions

    @Option(help: "The index worker's output directory, to tell which pages are indexed.")
    var out: String?

    @Option(help: "Seconds to spend reading each topic.")
    var readTimeout: Double = 60

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let logger = Logger(label: "artpipe.status")
        let client = try kafka.clientConfiguration()
        let timeout = Duration.seconds(fromFlag: readTimeout)
        var status = PipelineStatus()
        do {
            let read = { (topic: String) in
                try await KafkaTopicSnapshot.read(topic, configuration: client, timeout: timeout, logger: logger)
            }
            status.add(requests: try await read(ArtpipeTopic.pageRequests))
            status.advance(try await read(ArtpipeTopic.pages).compactMap(\.keyString), to: .fetched)
            status.advance(try await read(ArtpipeTopic.thumbnails).compactMap(\.keyString), to: .thumbnailed)
            status.add(deadLetters: try await read(ArtpipeTopic.deadLetters))
            let offsets = KafkaGroupOffsets(configuration: client, logger: logger)
            // A retry copy still waits when the fetch group has not committed past it.
            for topic in PipelineStage.fetch.retryTopics {
                let rows = try await offsets.positions(group: PipelineStage.fetch.groupID, topics: [topic])
                let committed = Dictionary(
                    rows.map { ($0.topicPartition.partition, $0.committed ?? $0.low) }, uniquingKeysWith: max)
                let messages = try await read(topic)
                status.add(retries: messages.filter { $0.offset >= committed[$0.partition] ?? 0 })
            }
            for stage in PipelineStage.allCases {
                for topic in stage.inputTopics {
                    let rows = try await offsets.positions(group: stage.groupID, topics: [topic])
                    status.lags.append(
                        .init(
                            group: stage.groupID, topic: topic,
                            partitions: rows.map { row in row.committed.map { row.high - $0 } }))
                }
            }
        } catch let error as KafkaError {
            throw ConfigurationError("cannot read the pipeline's topics: \(error.message)")
        }
        if let out {
            do {
                status.add(index: try PublishedIndex.manifest(in: URL(fileURLWithPath: out)))
            } catch let error as PublishedIndex.ReadError {
                throw ConfigurationError("--out: \(error.description)")
            }
        }
        print(status.text)
    }
}
