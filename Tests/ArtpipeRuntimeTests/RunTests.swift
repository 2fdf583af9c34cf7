import ArtpipeRuntime
import ArtpipeSupport
import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Synchronization
import Testing

/// Copies each message to the output topic and notes, in one sequence, when each offset was
/// handled, when its outputs were settled, and when the runtime finished it; a message keyed
/// ``poison`` cannot be read, and one keyed ``refused`` is refused for good by its handling.
private final class RunProbe: MessageHandler {
    enum Event: Equatable {
        case handled(Int64)
        case settled(Int64, acknowledged: Bool)
        case finished(Int64)
    }

    struct Unreadable: Error {}

    struct Refused: ClassifiedError {
        var description: String { "refused" }
        var failureClass: FailureClass { .forGood }
    }

    static let poison = "k50"
    static let refused = "k70"

    let outputTopic: String
    let sendsInRuns: Bool
    let handledTogether: Int
    private let log = Mutex<[Event]>([])
    private let together = Mutex<[Int]>([])

    init(outputTopic: String, sendsInRuns: Bool, handledTogether: Int = 1) {
        self.outputTopic = outputTopic
        self.sendsInRuns = sendsInRuns
        self.handledTogether = handledTogether
    }

    var events: [Event] { log.withLock { $0 } }
    /// How many messages each call of `handle(together:)` had.
    var handedTogether: [Int] { together.withLock { $0 } }

    func decode(_ message: KafkaConsumerMessage) throws -> KafkaConsumerMessage {
        guard message.keyString != Self.poison else { throw Unreadable() }
        return message
    }

    func handle(_ message: KafkaConsumerMessage, context: MessageContext) async throws -> [KafkaProducerRecord] {
        log.withLock { $0.append(.handled(message.offset)) }
        guard message.keyString != Self.refused else { throw Refused() }
        return [KafkaProducerRecord(topic: outputTopic, key: message.key, value: message.value)]
    }

    func handle(together inputs: [(input: KafkaConsumerMessage, context: MessageContext)]) async -> HandledTogether {
        together.withLock { $0.append(inputs.count) }
        return await handleOneByOne(inputs)
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
        "in runs, later messages are handled before earlier outputs are acknowledged, and several at a time where the handler takes them together; every output arrives once, in order, the handler hears each offset finished, an unreadable and a refused one too, each handled once but the refused one, and the group commits past the last",
        arguments: zip([false, true, true], [1, 1, 8]))
    func sharedRoundTrips(inRuns: Bool, together: Int) async throws {
        let cluster = try TestCluster()
        let input = try cluster.makeTopic("runs-in", partitions: 1)
        let output = try cluster.makeTopic("runs-out", partitions: 1)
        let deadLetters = try cluster.makeTopic("runs-dead", partitions: 1)
        let count = 100
        try await cluster.produce(to: input, 0..<count)
        let group = UniqueName.make("group")
        let handler = RunProbe(outputTopic: output, sendsInRuns: inRuns, handledTogether: together)
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: group, topics: [input], handler: handler, deadLetterTopic: deadLetters)
        let outputs = try await readTopic(output, brokers: cluster.brokers, count: count - 2, timeout: .seconds(60))
        try await waitUntil("every output settled, the last offset finished", timeout: .seconds(30)) {
            handler.events.count { if case .settled(_, acknowledged: true) = $0 { true } else { false } } == count - 2
                && handler.events.contains(.finished(Int64(count - 1)))
        }
        let deadLettered = try await readTopic(deadLetters, brokers: cluster.brokers, count: 2, timeout: .seconds(30))
        try await worker.stop()
        let committed = try await KafkaGroupOffsets(
            configuration: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test
        ).positions(group: group, topics: [input]).first?.committed
        await cluster.shutdown()

        let skipped = [RunProbe.poison, RunProbe.refused]
        #expect(outputs.compactMap(\.keyString) == (0..<count).map { "k\($0)" }.filter { !skipped.contains($0) })
        #expect(Set(deadLettered.compactMap(\.keyString)) == Set(skipped))
        #expect(committed == Int64(count))
        let events = handler.events
        // Each handled once, in order; the refused one again alone, where its failure is classified.
        let handled = events.compactMap { if case .handled(let offset) = $0 { offset } else { nil } }
        #expect(handled.filter { $0 != 70 } == (0..<Int64(count)).filter { $0 != 50 && $0 != 70 })
        #expect(handled.count { $0 == 70 } == (inRuns ? 2 : 1), "\(handled)")
        #expect(events.allSatisfy { $0 != .settled($0.offset, acknowledged: false) || $0.offset == 70 })
        // One at a time, `handle(_:context:)` alone; in runs, as many together as the handler takes.
        #expect(handler.handedTogether.isEmpty == !inRuns)
        #expect(handler.handedTogether.allSatisfy { $0 <= together }, "\(handler.handedTogether)")
        if together > 1 { #expect(handler.handedTogether.max() ?? 0 > 1, "\(handler.handedTogether)") }
        // Finished in order, each after its outputs settled, the unreadable and refused ones without outputs.
        let finished = events.compactMap { if case .finished(let offset) = $0 { offset } else { nil } }
        #expect(finished == finished.sorted() && Set(finished).count == finished.count)
        #expect(finished.contains(50) && finished.contains(70) && finished.last == Int64(count - 1), "\(finished)")
        for offset in finished where offset != 50 && offset != 70 {
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
            // The refused one is finished without outputs to settle.
            case .settled(let offset, _), .finished(let offset):
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
        case .handled(let offset), .settled(let offset, _), .finished(let offset): offset
        }
    }
}
