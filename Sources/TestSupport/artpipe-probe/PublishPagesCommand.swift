import ArgumentParser
import ArtpipeRuntime
import Foundation
import IndexWorker
import KafkaClient
import Logging
import PipelineContract

/// `artpipe-probe publish-pages`: indexes the pages of a file as one IndexWorker instance would
/// (state shards, then a publish) in this process, so a test can compare what processes with
/// different hash seeds publish from the same input.
struct PublishPagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish-pages",
        abstract: "Index the pages in FILE (a JSON array of Page) into DIR and publish the index.")

    @Option(help: "A JSON array of pages, applied in order as one partition's messages.")
    var pages: String
    @Option var out: String

    func run() throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let output = URL(fileURLWithPath: out, isDirectory: true)
        let logger = Logger(label: "artpipe.probe")
        let pages = try JSONDecoder().decode([Page].self, from: Data(contentsOf: URL(fileURLWithPath: self.pages)))
        let store = try IndexStateStore(outputDirectory: output, logger: logger)
        let partition = KafkaTopicPartition(topic: ArtpipeTopic.pages, partition: 0)
        _ = store.startOffset(for: partition)
        for (offset, page) in pages.enumerated() {
            let record = try MessageCodec.record(page, topic: ArtpipeTopic.pages)
            let message = KafkaConsumerMessage(
                topic: ArtpipeTopic.pages, partition: 0, offset: Int64(offset), key: record.key, value: record.value,
                headers: record.headers, timestampMilliseconds: 1_000 + Int64(offset))
            store.apply(message, pageId: page.pageId) { $0.add(page) }
        }
        _ = try store.flush()
        try IndexPublisher(outputDirectory: output, store: store).publish()
    }
}
