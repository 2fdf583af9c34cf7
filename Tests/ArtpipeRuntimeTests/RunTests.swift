import ArtpipeRuntime
import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Synchronization
import Testing

/// Copies each message to the output topic and notes, in one sequence, when each offset was
/// handled and when its outputs were settled.
private final class RunProbe: MessageHandler {
    enum Event: Equatable {
        case handled(Int64)
        case settled(Int64, acknowledged: Bool)
    }

    let outputTopic: String
    let sendsInRuns: Bool
    private let log = Mutex<[Event]>([])

    init(outputTopic: String, sendsInRuns: Bool) {
        self.outputTopic = outputTopic
        self.sendsInRuns = sendsInRuns
    }

    var events: [Event] { log.withLock { $0 } }

    func decode(_ message: KafkaConsumerMessage) throws -> KafkaConsumerMessage { message }

    func handle(_ message: KafkaConsumerMessage, context: MessageContext) async throws -> [KafkaProducerRecord] {
        log.withLock { $0.append(.handled(message.offset)) }
        return [KafkaProducerRecord(topic: outputTopic, key: message.key, value: message.value)]
    }

    func outputsSettled(of message: KafkaConsumerMessage, acknowledged: Bool) async {
        log.withLock { $0.append(.settled(message.offset, acknowledged: acknowledged)) }
    }
}

@Suite("Messages that share round trips", .serialized, .timeLimit(.minutes(2)))
struct RunTests {
    @Test(
        "in runs, later messages are handled before earlier outputs are acknowledged; every output arrives once, in order, and the group commits past the last",
        arguments: [false, true])
    func sharedRoundTrips(inRuns: Bool) async throws {
        let cluster = try TestCluster()
        let input = try cluster.makeTopic("runs-in", partitions: 1)
        let output = try cluster.makeTopic("runs-out", partitions: 1)
        let count = 100
        try await cluster.produce(to: input, 0..<count)
        let group = UniqueName.make("group")
        let handler = RunProbe(outputTopic: output, sendsInRuns: inRuns)
        let worker = try InProcessWorker(brokers: cluster.brokers, group: group, topics: [input], handler: handler)
        let outputs = try await readTopic(output, brokers: cluster.brokers, count: count, timeout: .seconds(60))
        try await waitUntil("every output settled", timeout: .seconds(30)) {
            handler.events.count { if case .settled = $0 { true } else { false } } == count
        }
        try await worker.stop()
        let committed = try await KafkaGroupOffsets(
            configuration: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test
        ).positions(group: group, topics: [input]).first?.committed
        await cluster.shutdown()

        #expect(outputs.compactMap(\.keyString) == (0..<count).map { "k\($0)" })
        #expect(committed == Int64(count))
        let events = handler.events
        #expect(events.allSatisfy { $0 != .settled($0.offset, acknowledged: false) })
        // Handled ahead: a message handled while an earlier one's outputs were not yet settled.
        var unsettled = Set<Int64>()
        var handledAhead = 0
        for event in events {
            switch event {
            case .handled(let offset):
                if !unsettled.isEmpty { handledAhead += 1 }
                unsettled.insert(offset)
            case .settled(let offset, _):
                unsettled.remove(offset)
            }
        }
        if inRuns {
            #expect(handledAhead > count / 2, "\(handledAhead) of \(count) handled ahead")
        } else {
            #expect(handledAhead == 0, "one at a time, each waits for the last one's acknowledgement")
        }
    }
}

extension RunProbe.Event {
    fileprivate var offset: Int64 {
        switch self {
        case .handled(let offset), .settled(let offset, _): offset
        }
    }
}
