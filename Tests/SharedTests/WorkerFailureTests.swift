import ArtpipeTestKit
import Foundation
import Shared
import Testing

@Suite("Worker runtime under failures", .serialized, .timeLimit(.minutes(3)))
struct WorkerFailureTests {
    @Test(
        "transient failures are retried; poison and permanently failing messages reach the dead letters; later messages still run"
    )
    func retriesAndDeadLetters() async throws {
        let broker = try EmbeddedBroker(logger: .test)
        let topic = UniqueName.make("failures")
        let deadLetters = UniqueName.make("dead-letters")
        try broker.createTopic(topic, partitions: 1)
        try broker.createTopic(deadLetters, partitions: 1)
        let producer = try KafkaProducer(
            configuration: KafkaClientConfiguration(brokers: broker.bootstrapServers), logger: .test)
        let values = (0..<12).map { index in
            switch index {
            case 3: "poison-\(index)"
            case 6: "flaky-\(index)"
            case 9: "doomed-\(index)"
            default: "ok-\(index)"
            }
        }
        try await producer.send(
            values.enumerated().map { index, value in
                KafkaProducerRecord(
                    topic: topic, key: "k\(index)", value: Array(value.utf8),
                    headers: [KafkaHeader("trace", "t\(index)")])
            })

        let handler = ProbeHandler(transientFailures: 2)
        let worker = try InProcessWorker(
            brokers: broker.bootstrapServers, group: UniqueName.make("group"), topics: [topic], handler: handler,
            retry: RetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(10), maxDelay: .milliseconds(50)),
            deadLetterTopic: deadLetters)
        try await waitUntil("the ten good messages", timeout: .seconds(60)) { handler.handled.count >= 10 }
        let letters = try await readTopic(
            deadLetters, brokers: broker.bootstrapServers, count: 2, timeout: .seconds(30))
        try await worker.stop()
        await producer.shutdown()

        #expect(handler.handled.map(\.offset) == [0, 1, 2, 4, 5, 6, 7, 8, 10, 11])
        #expect(handler.attemptCount(topic: topic, partition: 0, offset: 6) == 3)
        #expect(handler.attemptCount(topic: topic, partition: 0, offset: 9) == 4)

        try #require(letters.count == 2)
        let poison = letters[0]
        #expect(poison.keyString == "k3")
        #expect(poison.value == Array("poison-3".utf8))
        #expect(poison.headers.value(of: "trace") == "t3")
        #expect(poison.headers.value(of: DeadLetter.errorHeader)?.contains("undecodable") == true)
        #expect(poison.headers.value(of: DeadLetter.sourceTopicHeader) == topic)
        #expect(poison.headers.value(of: DeadLetter.sourcePartitionHeader) == "0")
        #expect(poison.headers.value(of: DeadLetter.sourceOffsetHeader) == "3")
        #expect(poison.headers.value(of: DeadLetter.workerHeader) == "probe")
        let doomed = letters[1]
        #expect(doomed.value == Array("doomed-9".utf8))
        #expect(doomed.headers.value(of: DeadLetter.errorHeader)?.contains("failed after 4 attempts") == true)
    }

    @Test("a broker outage of a few seconds: the worker recovers on its own and nothing is lost")
    func brokerOutage() async throws {
        let broker = try EmbeddedBroker(logger: .test)
        let input = UniqueName.make("outage-in")
        let output = UniqueName.make("outage-out")
        try broker.createTopic(input, partitions: 3)
        try broker.createTopic(output, partitions: 3)
        let producer = try KafkaProducer(
            configuration: KafkaClientConfiguration(brokers: broker.bootstrapServers), logger: .test)
        func records(_ range: Range<Int>) -> [KafkaProducerRecord] {
            range.map { KafkaProducerRecord(topic: input, key: "k\($0)", value: Array("v\($0)".utf8)) }
        }
        try await producer.send(records(0..<500))
        let handler = ProbeHandler(outputTopic: output)
        let worker = try InProcessWorker(
            brokers: broker.bootstrapServers, group: UniqueName.make("group"), topics: [input], handler: handler)
        try await waitUntil("the first 500", timeout: .seconds(60)) { handler.handled.count >= 500 }

        broker.setBrokerDown()
        let late = Task { try await producer.send(records(500..<1_000)) }
        // The outage itself: three seconds, under the session timeout.
        try await Task.sleep(for: .seconds(3))
        broker.setBrokerUp()
        try await late.value

        let expected = Set((0..<1_000).map { "k\($0)" })
        try await waitUntil("all 1,000 handled after the outage", timeout: .seconds(90)) {
            Set(handler.handled.compactMap(\.key)).isSuperset(of: expected)
        }
        let outputs = try await readTopic(output, brokers: broker.bootstrapServers, count: 1_000, timeout: .seconds(60))
        try await worker.stop()
        await producer.shutdown()
        #expect(Set(outputs.compactMap(\.keyString)) == expected)
    }
}
