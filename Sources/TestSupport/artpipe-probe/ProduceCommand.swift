import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import KafkaClient
import Logging

/// `artpipe-probe produce`: fills a topic with keyed messages.
struct ProduceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "produce", abstract: "Produce COUNT keyed messages (key k<i>, value v<i> padded to --value-size).")

    @OptionGroup var kafka: KafkaOptions

    @Option(help: "Topic to produce to.")
    var topic: String

    @Option(help: "Number of messages.")
    var count: Int

    @Option(help: "Value size in bytes.")
    var valueSize: Int = 16

    @Option(help: "Messages awaited together.")
    var batch: Int = 20_000

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let logger = Logger(label: "artpipe.probe")
        let producer = try KafkaProducer(configuration: try kafka.clientConfiguration(), logger: logger)
        let start = ContinuousClock.now
        var next = 0
        while next < count {
            let end = min(count, next + batch)
            let records = (next..<end).map { index in
                var value = Array("v\(index)".utf8)
                if value.count < valueSize {
                    value += Array(repeating: UInt8(ascii: "."), count: valueSize - value.count)
                }
                return KafkaProducerRecord(topic: topic, key: "k\(index)", value: value)
            }
            try await producer.send(records)
            next = end
        }
        await producer.shutdown()
        let seconds = start.duration(to: .now).seconds
        print("produced \(count) messages in \(String(format: "%.3f", seconds)) s")
    }
}
