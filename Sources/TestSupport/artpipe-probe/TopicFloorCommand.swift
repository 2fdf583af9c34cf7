import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import Dispatch
import Foundation
import KafkaClient
import Logging
import Synchronization

/// `artpipe-probe topic-floor`: what the broker itself costs the moves an index rebuild must
/// make, measured on the topics the rebuild left: each `--read` topic read once (the pages),
/// each `--copy` topic's rows read once and written once (a repartition topic, written by one
/// stage and read by the next), to `<topic>.floor`, made with the topic's partition count and
/// each row written to its partition (where the broker makes no topics on request, as the
/// embedded one: made by the first write, each row placed by its key). Reads go outside any
/// group, as a restore's do; writes go in batches through the workers' producer, each awaited,
/// while the read goes on. The phases run one after another: their sum is the floor, where
/// the rebuild runs them side by side.
struct TopicFloorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topic-floor",
        abstract: "Time reading topics once and copying topics row by row: the broker's own cost of a rebuild.")

    @OptionGroup var kafka: KafkaOptions

    @Option(help: "A topic read once, every partition to its end; repeatable.")
    var read: [String] = []

    @Option(help: "A topic whose every row is read once and written once, to TOPIC.floor; repeatable.")
    var copy: [String] = []

    @Option(help: "Rows written together, each batch awaited; at most four wait behind the one sending.")
    var batch: Int = 10_000

    func validate() throws {
        guard !read.isEmpty || !copy.isEmpty else { throw ValidationError("give --read or --copy") }
        guard batch > 0 else { throw ValidationError("--batch must be above 0") }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let logger = Logger(label: "artpipe.probe")
        let configuration = try kafka.clientConfiguration()
        var total = Duration.zero
        for topic in read {
            let rows = Mutex((count: 0, bytes: 0))
            let start = ContinuousClock.now
            try await KafkaTopicSnapshot.scan(
                topic, configuration: configuration, timeout: .seconds(86_400), stallTimeout: .seconds(60),
                logger: logger
            ) {
                message in
                rows.withLock { $0 = ($0.count + 1, $0.bytes + message.value.count + (message.key?.count ?? 0)) }
            }
            let took = start.duration(to: .now)
            total += took
            report("read", topic, rows.withLock { $0 }, took)
        }
        guard !copy.isEmpty else { return summarize(total) }
        let producer = try KafkaProducer(configuration: configuration, logger: logger)
        let partitions = try await producer.metadata(timeout: .seconds(30)).partitionsByTopic
        for topic in copy {
            guard let count = partitions[topic] else { throw ValidationError("no topic \(topic)") }
            let target = "\(topic).floor"
            let samePartitions: Bool
            do {
                _ = try await KafkaTopicAdmin.createTopics(
                    [target], partitions: count, replicationFactor: 1, configuration: configuration,
                    timeout: .seconds(30), logger: logger)
                samePartitions = true
            } catch {
                samePartitions = false
            }
            let start = ContinuousClock.now
            let rows = try await copyRows(
                of: topic, to: target, samePartitions: samePartitions, producer: producer,
                configuration: configuration, logger: logger)
            let took = start.duration(to: .now)
            total += took
            report("read and wrote", topic, rows, took)
        }
        await producer.shutdown()
        summarize(total)
    }

    /// Reads every row of `topic` and writes it to `target` under its key, the writes sent in
    /// batches while the read goes on; returns the rows and their bytes once all are acknowledged.
    private func copyRows(
        of topic: String, to target: String, samePartitions: Bool, producer: KafkaProducer,
        configuration: KafkaClientConfiguration, logger: Logger
    ) async throws -> (count: Int, bytes: Int) {
        let (batches, continuation) = AsyncStream.makeStream(of: [KafkaProducerRecord].self)
        // The read blocks while four batches wait: memory stays flat whatever the topic's length.
        let room = DispatchSemaphore(value: 4)
        let pending = Mutex((records: [KafkaProducerRecord](), count: 0, bytes: 0))
        let size = batch
        async let scanned: Void = {
            defer { continuation.finish() }
            try await KafkaTopicSnapshot.scan(
                topic, configuration: configuration, timeout: .seconds(86_400), stallTimeout: .seconds(60),
                logger: logger
            ) {
                message in
                var record = KafkaProducerRecord(
                    topic: target, partition: samePartitions ? message.partition : nil, key: message.key,
                    value: message.value)
                record.isTombstone = message.isTombstone
                let full: [KafkaProducerRecord]? = pending.withLock { pending in
                    pending.records.append(record)
                    pending.count += 1
                    pending.bytes += message.value.count + (message.key?.count ?? 0)
                    guard pending.records.count >= size else { return nil }
                    defer { pending.records = [] }
                    return pending.records
                }
                if let full {
                    room.wait()
                    continuation.yield(full)
                }
            }
            let rest = pending.withLock { pending in
                defer { pending.records = [] }
                return pending.records
            }
            if !rest.isEmpty {
                room.wait()
                continuation.yield(rest)
            }
        }()
        // A failed send leaves the rest unsent but still taken, so the read is never left blocked.
        var failure: (any Error)?
        for await records in batches {
            if failure == nil {
                do { try await producer.send(records) } catch { failure = error }
            }
            room.signal()
        }
        try await scanned
        if let failure { throw failure }
        return pending.withLock { ($0.count, $0.bytes) }
    }

    private func report(_ verb: String, _ topic: String, _ rows: (count: Int, bytes: Int), _ took: Duration) {
        print(
            "\(verb) \(topic): \(rows.count) rows, \(rows.bytes / 1_048_576) MiB in "
                + "\(String(format: "%.1f", took.seconds)) s")
    }

    private func summarize(_ total: Duration) {
        print("floor: \(String(format: "%.1f", total.seconds)) s")
    }
}
