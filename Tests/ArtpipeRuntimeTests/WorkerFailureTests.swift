import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import PipelineContract
import Testing

@Suite("Worker runtime under failures", .serialized, .timeLimit(.minutes(3)))
struct WorkerFailureTests {
    @Test(
        "transient failures are retried; poison and permanently failing messages reach the dead letters; later messages still run"
    )
    func retriesAndDeadLetters() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("failures", partitions: 1)
        let deadLetters = try cluster.makeTopic("dead-letters", partitions: 1)
        let kinds = [3: "poison", 6: "flaky", 9: "doomed"]
        try await cluster.produce(
            to: topic, 0..<12, value: { "\(kinds[$0] ?? "ok")-\($0)" }, headers: { [KafkaHeader("trace", "t\($0)")] })

        let handler = ProbeHandler(transientFailures: 2)
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("group"), topics: [topic], handler: handler,
            retry: RetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(10), maxDelay: .milliseconds(50)),
            deadLetterTopic: deadLetters)
        try await waitUntil("the ten good messages", timeout: .seconds(60)) { handler.handled.count >= 10 }
        let letters = try await readTopic(deadLetters, brokers: cluster.brokers, count: 2, timeout: .seconds(30))
        try await worker.stop()
        await cluster.shutdown()

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
        let cluster = try TestCluster()
        let input = try cluster.makeTopic("outage-in", partitions: 3)
        let output = try cluster.makeTopic("outage-out", partitions: 3)
        try await cluster.produce(to: input, 0..<500)
        let handler = ProbeHandler(outputTopic: output)
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("group"), topics: [input], handler: handler)
        try await waitUntil("the first 500", timeout: .seconds(60)) { handler.handled.count >= 500 }

        cluster.broker.setBrokerDown()
        let late = Task { try await cluster.produce(to: input, 500..<1_000) }
        // The outage itself: three seconds, under the session timeout.
        try await Task.sleep(for: .seconds(3))
        cluster.broker.setBrokerUp()
        try await late.value

        let expected = Set((0..<1_000).map { "k\($0)" })
        try await waitUntil("all 1,000 handled after the outage", timeout: .seconds(90)) {
            Set(handler.handled.compactMap(\.key)).isSuperset(of: expected)
        }
        var outputs = try await readTopic(output, brokers: cluster.brokers, count: 1_000, timeout: .seconds(60))
        // A message handled again after the outage (at least once) has its output twice: the
        // first 1,000 may hold such a second copy. Read on while that brings more outputs.
        while case let missing = expected.subtracting(outputs.compactMap(\.keyString)), !missing.isEmpty {
            let more = try await readTopic(
                output, brokers: cluster.brokers, count: outputs.count + missing.count, timeout: .seconds(30))
            guard more.count > outputs.count else { break }
            outputs = more
        }
        try await worker.stop()
        await cluster.shutdown()
        #expect(Set(outputs.compactMap(\.keyString)) == expected)
    }
}
