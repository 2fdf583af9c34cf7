import ArtpipeRuntime
import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Testing

/// A record and a changelog row per message; `big-out` makes its record, `big-state` its row,
/// larger than the producer takes (refused for good).
private struct ChangelogHandler: MessageHandler {
    let outputTopic: String
    let changelog: StoreChangelog?

    func decode(_ message: KafkaConsumerMessage) throws -> KafkaConsumerMessage { message }

    func handle(_ message: KafkaConsumerMessage, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let big = [UInt8](repeating: 0x61, count: 2 << 20)
        let output = message.value == Array("big-out".utf8) ? big : message.value
        let state = message.value == Array("big-state".utf8) ? big : message.value
        return [
            KafkaProducerRecord(topic: changelog!.topic, key: message.key, value: state),
            KafkaProducerRecord(topic: outputTopic, key: message.key, value: output),
        ]
    }
}

@Suite("A handler's changelog and its other records, one after the other", .serialized, .timeLimit(.minutes(2)))
struct StoreChangelogTests {
    @Test(
        "what goes second is never produced when what goes first cannot be: a row after refused outputs, outputs after a refused row",
        arguments: [StoreChangelog.Order.afterOutputs, .beforeOutputs])
    func secondWaitsForFirst(order: StoreChangelog.Order) async throws {
        let cluster = try TestCluster()
        let input = try cluster.makeTopic("ordered-in", partitions: 1)
        let output = try cluster.makeTopic("ordered-out", partitions: 1)
        let changelog = try cluster.makeTopic("ordered-state", partitions: 1)
        let deadLetters = try cluster.makeTopic("ordered-dead", partitions: 1)
        // The part that goes first is the one refused for k1.
        let refused = order == .afterOutputs ? "big-out" : "big-state"
        try await cluster.produce(to: input, 0..<3) { $0 == 1 ? refused : "ok-\($0)" }
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("group"), topics: [input],
            handler: ChangelogHandler(outputTopic: output, changelog: StoreChangelog(changelog, order: order)),
            deadLetterTopic: deadLetters)
        let letters = try await readTopic(deadLetters, brokers: cluster.brokers, count: 1, timeout: .seconds(60))
        // In partition order: a record of k1 would come between k0's and k2's.
        let rows = try await readTopic(changelog, brokers: cluster.brokers, count: 2, timeout: .seconds(30))
        let outputs = try await readTopic(output, brokers: cluster.brokers, count: 2, timeout: .seconds(30))
        try await worker.stop()
        await cluster.shutdown()
        #expect(letters.map(\.keyString) == ["k1"])
        #expect(rows.map(\.keyString) == ["k0", "k2"])
        #expect(outputs.map(\.keyString) == ["k0", "k2"])
    }
}

@Suite("What of a changelog's records is sent")
struct StoreChangelogRecordsTests {
    @Test("the last of each partition and key, in their order; records without a key all")
    func lastOfEachKey() {
        let record = { (key: String?, partition: Int32, value: String) in
            KafkaProducerRecord(
                topic: "t", partition: partition, key: key.map { Array($0.utf8) }, value: Array(value.utf8))
        }
        let records = [
            record("a", 0, "1"), record("b", 0, "2"), record("a", 1, "3"), record(nil, 0, "4"), record("a", 0, "5"),
            record(nil, 0, "6"), record("b", 0, "7"),
        ]
        let sent = StoreChangelog.lastOfEachKey(records).map { String(decoding: $0.value, as: UTF8.self) }
        #expect(sent == ["3", "4", "5", "6", "7"])
    }
}
