import ArtpipeRuntime
import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Synchronization
import Testing

/// Copies each message to the output topic and notes, in one sequence, when each offset was
/// handled, when its outputs were settled, and when the runtime finished it; a message keyed
/// ``poison`` cannot be read.
private final class RunProbe: MessageHandler {
    enum Event: Equatable {
        case handled(Int64)
        case settled(Int64, acknowledged: Bool)
        case finished(Int64)
    }

    struct Unreadable: Error {}

    static let poison = "k50"

    let outputTopic: String
    let sendsInRuns: Bool
    private let log = Mutex<[Event]>([])

    init(outputTopic: String, sendsInRuns: Bool) {
        self.outputTopic = outputTopic
        self.sendsInRuns = sendsInRuns
    }

    var events: [Event] { log.withLock { $0 } }

    func decode(_ message: KafkaConsumerMessage) throws -> KafkaConsumerMessage {
        guard message.keyString != Self.poison else { throw Unreadable() }
        return message
    }

    func handle(_ message: KafkaConsumerMessage, context: MessageContext) async throws -> [KafkaProducerRecord] {
        log.withLock { $0.append(.handled(message.offset)) }
        return [KafkaProducerRecord(topic: outputTopic, key: message.key, value: message.value)]
    }

    func outputsSettled(of message: KafkaConsumerMessage, acknowledged: Bool) async {
        log.withLock { $0.append(.settled(message.offset, acknowledged: acknowledged)) }
    }

    func finished(_ message: KafkaConsumerMessage) {
        log.withLock { $0.append(.finished(message.offset)) }
    }
}

@Suite("Messages that share round trips", .serialized, .timeLimit(.minutes(2)))
struct RunTests {
    @Test(
        "in runs, later messages are handled before earlier outputs are acknowledged; every output arrives once, in order, the handler hears each offset finished, an unreadable one too, and the group commits past the last",
        arguments: [false, true])
    func sharedRoundTrips(inRuns: Bool) async throws {
        let cluster = try TestCluster()
        let input = try cluster.makeTopic("runs-in", partitions: 1)
        let output = try cluster.makeTopic("runs-out", partitions: 1)
        let deadLetters = try cluster.makeTopic("runs-dead", partitions: 1)
        let count = 100
        try await cluster.produce(to: input, 0..<count)
        let group = UniqueName.make("group")
        let handler = RunProbe(outputTopic: output, sendsInRuns: inRuns)
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: group, topics: [input], handler: handler, deadLetterTopic: deadLetters)
        let outputs = try await readTopic(output, brokers: cluster.brokers, count: count - 1, timeout: .seconds(60))
        try await waitUntil("every output settled, the last offset finished", timeout: .seconds(30)) {
            handler.events.count { if case .settled = $0 { true } else { false } } == count - 1
                && handler.events.contains(.finished(Int64(count - 1)))
        }
        try await worker.stop()
        let committed = try await KafkaGroupOffsets(
            configuration: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test
        ).positions(group: group, topics: [input]).first?.committed
        await cluster.shutdown()

        #expect(outputs.compactMap(\.keyString) == (0..<count).map { "k\($0)" }.filter { $0 != RunProbe.poison })
        #expect(committed == Int64(count))
        let events = handler.events
        #expect(events.allSatisfy { $0 != .settled($0.offset, acknowledged: false) })
        // Finished in order, each after its outputs settled, the unreadable one without outputs.
        let finished = events.compactMap { if case .finished(let offset) = $0 { offset } else { nil } }
        #expect(finished == finished.sorted() && Set(finished).count == finished.count)
        #expect(finished.contains(50) && finished.last == Int64(count - 1), "\(finished)")
        for offset in finished where offset != 50 {
            let settled = events.firstIndex(of: .settled(offset, acknowledged: true))
            #expect(settled != nil && settled! < events.firstIndex(of: .finished(offset))!, "offset \(offset)")
        }
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
            case .finished:
                break
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
        case .handled(let offset), .settled(let offset, _), .finished(let offset): offset
        }
    }
}
