import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import PipelineContract
import Testing

private struct PoisonValue: Error, CustomStringConvertible {
    let description = "value starts with 'poison'"
}

/// Outputs as large as the value says (`big` → 2 MB, over the producer's 1 MB limit).
struct SizedOutputHandler: MessageHandler {
    let outputTopic: String
    var sendsInRuns = false

    func decode(_ message: KafkaConsumerMessage) throws -> KafkaConsumerMessage {
        if message.value.starts(with: Array("poison".utf8)) { throw PoisonValue() }
        return message
    }

    func handle(_ message: KafkaConsumerMessage, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let big = message.value.starts(with: Array("big".utf8))
        return [
            KafkaProducerRecord(
                topic: outputTopic, key: message.key,
                value: big ? [UInt8](repeating: 0x61, count: 2 << 20) : message.value)
        ]
    }
}

@Suite("Produce errors that never succeed", .serialized, .timeLimit(.minutes(1)))
struct ProduceFailureTests {
    /// Input, output and dead-letter topics on a cluster of their own; `records` produced to the
    /// input by a producer allowed larger messages than the worker's (for oversized poison);
    /// then a worker with `SizedOutputHandler` on them.
    static func run(_ prefix: String, inRuns: Bool = false, records: (String) -> [KafkaProducerRecord]) async throws
        -> (
            cluster: TestCluster, output: String, deadLetters: String, worker: InProcessWorker<SizedOutputHandler>
        )
    {
        let cluster = try TestCluster()
        let input = try cluster.makeTopic("\(prefix)-in", partitions: 1)
        let output = try cluster.makeTopic("\(prefix)-out", partitions: 1)
        let deadLetters = try cluster.makeTopic("\(prefix)-dead", partitions: 1)
        let large = try KafkaProducer(
            configuration: KafkaClientConfiguration(
                brokers: cluster.brokers, properties: ["message.max.bytes": "4000000"]),
            logger: .test)
        try await large.send(records(input))
        await large.shutdown(timeout: .seconds(5))
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("group"), topics: [input],
            handler: SizedOutputHandler(outputTopic: output, sendsInRuns: inRuns), deadLetterTopic: deadLetters)
        return (cluster, output, deadLetters, worker)
    }

    @Test(
        "an output too large for the producer dead-letters its input; a dead letter too large itself goes without its value; the partition moves on",
        arguments: [false, true])
    func tooLarge(inRuns: Bool) async throws {
        let poison = Array("poison".utf8) + [UInt8](repeating: 0x62, count: 1_500_000)
        let (cluster, output, deadLetters, worker) = try await Self.run("sized", inRuns: inRuns) { input in
            [
                KafkaProducerRecord(topic: input, key: "k0", value: Array("ok-0".utf8)),
                KafkaProducerRecord(topic: input, key: "k1", value: Array("big-1".utf8)),
                KafkaProducerRecord(topic: input, key: "k2", value: poison, headers: [KafkaHeader("trace", "t2")]),
                KafkaProducerRecord(topic: input, key: "k3", value: Array("ok-3".utf8)),
            ]
        }
        let letters = try await readTopic(deadLetters, brokers: cluster.brokers, count: 2, timeout: .seconds(60))
        // In runs, k0's output may go out twice: with the run the refused record was in, and
        // again when the run's messages are handled one at a time (at least once).
        let outputs = try await readTopic(
            output, brokers: cluster.brokers, count: inRuns ? 3 : 2, timeout: .seconds(20))
        try await worker.stop()
        await cluster.shutdown()

        let keys = outputs.compactMap(\.keyString)
        #expect(inRuns ? keys.filter { $0 != "k0" } == ["k3"] && keys.first == "k0" : keys == ["k0", "k3"], "\(keys)")
        try #require(letters.count == 2)
        #expect(letters[0].keyString == "k1")
        #expect(letters[0].value == Array("big-1".utf8))
        #expect(
            letters[0].headers.value(of: DeadLetter.errorHeader)?.contains("its outputs cannot be produced") == true)
        #expect(letters[1].keyString == "k2")
        #expect(letters[1].value.isEmpty)
        #expect(letters[1].headers.value(of: DeadLetter.valueCutHeader) == String(poison.count))
        #expect(letters[1].headers.value(of: DeadLetter.errorHeader)?.contains("undecodable") == true)
        #expect(letters[1].headers.value(of: "trace") == "t2")
    }

    @Test(
        "a poison message whose headers alone are too large: a bare dead letter names where it is, and the partition moves on"
    )
    func headersTooLarge() async throws {
        let huge = String(repeating: "h", count: 1_500_000)
        let (cluster, output, deadLetters, worker) = try await Self.run("headers") { input in
            [
                KafkaProducerRecord(
                    topic: input, key: "k0", value: Array("poison-0".utf8),
                    headers: [KafkaHeader("trace", "t0"), KafkaHeader("blob", huge)]),
                KafkaProducerRecord(topic: input, key: "k1", value: Array("ok-1".utf8)),
            ]
        }
        let outputs = try await readTopic(output, brokers: cluster.brokers, count: 1, timeout: .seconds(60))
        let letters = try await readTopic(deadLetters, brokers: cluster.brokers, count: 1, timeout: .seconds(60))
        try await worker.stop()
        await cluster.shutdown()

        #expect(outputs.compactMap(\.keyString) == ["k1"], "the partition went on past the poison message")
        let letter = try #require(letters.first)
        #expect(letter.keyString == "k0" && letter.value.isEmpty)
        #expect(letter.headers.value(of: DeadLetter.headersCutHeader) == "2")
        #expect(letter.headers.value(of: DeadLetter.sourceOffsetHeader) == "0")
        #expect(letter.headers.value(of: DeadLetter.errorHeader)?.contains("undecodable") == true)
        #expect(letter.headers.value(of: "blob") == nil)
    }

    @Test("a fatal producer error stops the worker with that error, so its process exits non-zero")
    func fatalError() async throws {
        let cluster = try TestCluster()
        let input = try cluster.makeTopic("fatal-in", partitions: 1)
        let output = try cluster.makeTopic("fatal-out", partitions: 1)
        let handler = ProbeHandler(outputTopic: output)
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("group"), topics: [input], handler: handler)
        try await cluster.produce(to: input, 0..<1)
        try await waitUntil("the first message handled", timeout: .seconds(60)) { handler.handled.count == 1 }
        let refused = worker.producer.triggerFatalErrorForTesting(reason: "test: out of order sequence")
        try #require(refused == nil, "\(refused!)")
        try await cluster.produce(to: input, 1..<2)
        let result = await worker.waitForEnd()
        await cluster.shutdown()
        guard case .failure(let error) = result else {
            Issue.record("the worker stopped without an error")
            return
        }
        #expect((error as? KafkaError)?.isFatal == true, "\(error)")
    }
}
