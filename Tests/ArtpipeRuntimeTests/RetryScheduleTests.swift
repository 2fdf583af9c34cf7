import ArtpipeRuntime
import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import KafkaClient
import KafkaTestKit
import PipelineContract
import Testing

@Suite("Retry topics", .serialized, .timeLimit(.minutes(3)))
struct RetryScheduleTests {
    @Test("the delay grows with each failure, and a Retry-After moves to the topic that covers it")
    func tiers() {
        let schedule = RetrySchedule(
            topics: ["r1", "r2", "r3"], delays: [.seconds(60), .seconds(600), .seconds(3_600)],
            giveUpAfter: .seconds(86_400))
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(schedule.next(afterAttempts: 1, retryAfter: nil, now: now) == ("r1", now + 60))
        #expect(schedule.next(afterAttempts: 2, retryAfter: nil, now: now) == ("r2", now + 600))
        #expect(schedule.next(afterAttempts: 9, retryAfter: nil, now: now) == ("r3", now + 3_600))
        #expect(schedule.next(afterAttempts: 1, retryAfter: .seconds(120), now: now) == ("r2", now + 600))
        // Longer than every delay: the last topic, and the whole wait.
        #expect(schedule.next(afterAttempts: 1, retryAfter: .seconds(7_200), now: now) == ("r3", now + 7_200))
        #expect(!schedule.isExhausted(firstFailure: now, now: now + 86_399))
        #expect(schedule.isExhausted(firstFailure: now, now: now + 86_400))
    }

    @Test("the state travels in headers, keeps the message's own headers and the first and latest reasons")
    func headers() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var carried = [KafkaHeader("trace", "t1")]
        for attempt in 1...20 {
            let now = start + Double(attempt)
            let state = RetryState.after(
                RetryState(headers: carried), failedAt: now, reason: "failure \(attempt)\nsecond line", due: now + 60)
            carried = state.headers(replacingIn: carried)
            #expect(carried.value(of: "trace") == "t1")
            #expect(carried.filter { $0.name == RetryState.attemptsHeader }.count == 1)
        }
        let state = RetryState(headers: carried)
        let final = try #require(state)
        #expect(final.attempts == 20)
        #expect(final.firstFailure == start + 1)
        #expect(final.due == start + 80)
        #expect(final.history.count == RetryState.maxHistory)
        #expect(final.history.first?.reason == "failure 1 second line")
        #expect(final.lastReason == "failure 20 second line")
        #expect(RetryState(headers: [KafkaHeader(RetryState.attemptsHeader, "x")]) == nil)
    }

    @Test("a message failing for the moment moves to the retry topics and comes back; later messages go on meanwhile")
    func retriedThroughTopics() async throws {
        let rig = try RetryRig("retry")
        let (cluster, input, output, deadLetters, tiers) = (
            rig.cluster, rig.input, rig.output, rig.deadLetters, rig.tiers
        )
        try await cluster.produce(
            to: input, 0..<6, value: { $0 == 1 ? "flaky-\($0)" : $0 == 4 ? "never-\($0)" : "ok-\($0)" })

        // Only the flaky message fails, twice; the rest pass at once. Its two hops through the
        // retry topics take about a second alone, but over ten seconds were seen in CI with seven
        // other tests on two cores: the give-up (which is to end only the `never` one) leaves
        // them thirty.
        let worker = try rig.worker(giveUpAfter: .seconds(30))
        let outputs = try await readTopic(output, brokers: cluster.brokers, count: 5, timeout: .seconds(60))
        let letters = try await readTopic(deadLetters, brokers: cluster.brokers, count: 1, timeout: .seconds(60))
        let firstTier = try await readTopic(tiers[0], brokers: cluster.brokers, count: 2, timeout: .seconds(30))
        try await worker.stop()
        await cluster.shutdown()

        // The four good ones went first, the flaky one after its two failures.
        #expect(outputs.compactMap(\.keyString) == ["k0", "k2", "k3", "k5", "k1"])
        let flakyCopy = try #require(firstTier.first { $0.keyString == "k1" })
        #expect(flakyCopy.value == Array("flaky-1".utf8))
        #expect(RetryState(headers: flakyCopy.headers)?.attempts == 1)

        try #require(letters.count == 1, "dead letters: \(letters.compactMap(\.keyString))")
        let letter = letters[0]
        #expect(letter.keyString == "k4")
        #expect(letter.headers.value(of: DeadLetter.errorHeader)?.hasPrefix("still failing after") == true)
        let history = try #require(RetryState(headers: letter.headers))
        #expect(history.attempts >= 3)
        // The headers keep the first and the latest reasons, at most `maxHistory` of them.
        #expect(history.history.count == min(history.attempts, RetryState.maxHistory))
        #expect(history.lastReason.contains("down for now"))
    }
}

extension RetryScheduleTests {
    @Test("retry headers out of range, or due a thousand years ahead, are dead-lettered at once; the partition goes on")
    func poisonRetryHeaders() async throws {
        let rig = try RetryRig("poison")
        let (cluster, output, deadLetters, tiers) = (rig.cluster, rig.output, rig.deadLetters, rig.tiers)
        let now = RetryState.text(Date())
        let poison: [[KafkaHeader]] = [
            [
                KafkaHeader(RetryState.attemptsHeader, String(Int.max)),
                KafkaHeader(RetryState.firstFailureHeader, now),
                KafkaHeader(RetryState.dueHeader, now),
            ],
            [
                KafkaHeader(RetryState.attemptsHeader, "2"), KafkaHeader(RetryState.firstFailureHeader, now),
                KafkaHeader(RetryState.dueHeader, "99999999999999999999"),
            ],
            [
                KafkaHeader(RetryState.attemptsHeader, "2"), KafkaHeader(RetryState.firstFailureHeader, now),
                KafkaHeader(RetryState.dueHeader, RetryState.text(Date().addingTimeInterval(1_000 * 365 * 86_400))),
            ],
        ]
        // Three poison copies on the first retry topic, then a good one behind them.
        try await cluster.produce(to: tiers[0], 0..<4, value: { "ok-\($0)" }, headers: { $0 < 3 ? poison[$0] : [] })
        let worker = try rig.worker()
        let letters = try await readTopic(deadLetters, brokers: cluster.brokers, count: 3, timeout: .seconds(60))
        let outputs = try await readTopic(output, brokers: cluster.brokers, count: 1, timeout: .seconds(60))
        try await worker.stop()
        await cluster.shutdown()
        #expect(letters.compactMap(\.keyString) == ["k0", "k1", "k2"])
        let reasons = letters.compactMap { $0.headers.value(of: DeadLetter.errorHeader) }
        #expect(reasons[0].contains("unreadable retry headers") && reasons[1].contains("unreadable retry headers"))
        #expect(reasons[2].contains("further ahead than any retry waits"), "\(reasons[2])")
        #expect(outputs.compactMap(\.keyString) == ["k3"])
    }
}

extension RetryScheduleTests {
    /// The clock scaled 3,600 to 1: the last topic's delay of an hour is a second; a copy a
    /// server asked to wait 15 h is due in 15 s, one asked to wait 1 h in 1 s.
    @Test("a copy due sooner never waits behind one due later on the same retry partition")
    func dueSoonerGoesFirst() async throws {
        let rig = try RetryRig("parked")
        let (cluster, output, tiers) = (rig.cluster, rig.output, rig.tiers)
        let worker = try rig.worker(giveUpAfter: .seconds(30))
        // The clock starts once the worker holds its partitions: joining takes seconds of its own.
        try await waitUntil("the worker holds its four partitions", timeout: .seconds(60)) {
            worker.consumer.health.assignedPartitions == 4
        }
        let now = Date()
        let copy = { (hours: Double) in
            RetryState(attempts: 1, firstFailure: now, due: now + hours, history: [.init(at: now, reason: "503")])
                .headers(replacingIn: [])
        }
        // Both on the last retry topic's one partition: the one due in "15 h" first, then "1 h".
        try await cluster.produce(to: tiers[2], 0..<2, value: { "ok-\($0)" }, headers: { copy($0 == 0 ? 15 : 1) })
        let outputs = try await readTopic(output, brokers: cluster.brokers, count: 2, timeout: .seconds(60))
        let tier = try await readTopic(tiers[2], brokers: cluster.brokers, count: 3, timeout: .seconds(30))
        try await worker.stop()
        await cluster.shutdown()
        // The order is the proof: a worker that waited behind "15 h" would have run k0 first. No
        // upper bound on when k1 ran: a rebalance on a loaded machine can delay both.
        #expect(outputs.compactMap(\.keyString) == ["k1", "k0"], "the copy due in 1 h ran first")
        // When each output was produced, in seconds from the copies' failure.
        let ranAt = outputs.map { Double($0.timestampMilliseconds ?? 0) / 1_000 - now.timeIntervalSince1970 }
        #expect(ranAt[0] >= 1, "the copy due in 1 h ran \(ranAt[0]) s in: never early")
        // Headers and timestamps carry whole milliseconds.
        #expect(ranAt[1] >= 14.99, "the copy due in 15 h ran \(ranAt[1]) s in: never early")
        let parked = try #require(tier.last)
        #expect(parked.keyString == "k0" && RetryState(headers: parked.headers)?.parkedAt != nil)
        #expect(RetryState(headers: parked.headers)?.due.timeIntervalSince(now) ?? 0 > 14.9, "its due time is kept")
    }
}

/// One-partition input, output, dead-letter and three retry topics on a cluster of their own,
/// and a worker on them whose retries wait 0.3, 0.6 and 1 s and give up after 3 s unless told.
private struct RetryRig {
    let cluster: TestCluster
    let input: String
    let output: String
    let deadLetters: String
    let tiers: [String]

    init(_ prefix: String) throws {
        let cluster = try TestCluster()
        self.cluster = cluster
        input = try cluster.makeTopic("\(prefix)-in", partitions: 1)
        output = try cluster.makeTopic("\(prefix)-out", partitions: 1)
        deadLetters = try cluster.makeTopic("\(prefix)-dead", partitions: 1)
        tiers = try (1...3).map { try cluster.makeTopic("\(prefix)-tier-\($0)", partitions: 1) }
    }

    func worker(giveUpAfter: Duration = .seconds(3)) throws -> InProcessWorker<RecoveringHandlerSelector> {
        try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("group"), topics: [input],
            handler: RecoveringHandlerSelector(outputTopic: output),
            retrySchedule: RetrySchedule(
                topics: tiers, delays: [.milliseconds(300), .milliseconds(600), .seconds(1)], giveUpAfter: giveUpAfter),
            deadLetterTopic: deadLetters)
    }
}

/// Flaky messages recover after two failures; `never` ones do not; the rest pass at once.
private struct RecoveringHandlerSelector: MessageHandler {
    let outputTopic: String

    func decode(_ message: KafkaConsumerMessage) throws -> KafkaConsumerMessage { message }

    func handle(_ message: KafkaConsumerMessage, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let failed = RetryState(headers: message.headers)?.attempts ?? 0
        let value = String(decoding: message.value, as: UTF8.self)
        if value.hasPrefix("never") || (value.hasPrefix("flaky") && failed < 2) {
            throw HandlerFailure.forNow("down for now (\(failed) failures so far)")
        }
        return [KafkaProducerRecord(topic: outputTopic, key: message.key, value: message.value)]
    }
}
