import ArtpipeRuntime
import Foundation
import KafkaClient
import Logging
import Synchronization

/// A handler for tests and benchmarks. It records every message it handles (in memory, and
/// as `begin`/`done` lines in a file when given one) and has knobs for the failure cases:
/// - a value starting with `poison` does not decode;
/// - a value starting with `flaky` fails `transientFailures` times, then succeeds;
/// - a value starting with `doomed` always fails transiently.
package final class ProbeHandler: MessageHandler {
    package struct Undecodable: Error, CustomStringConvertible {
        package let description = "value starts with 'poison'"
    }

    /// A handled message: where it was and what key it had.
    package struct Handled: Hashable, Sendable {
        package let topic: String
        package let partition: Int32
        package let offset: Int64
        package let key: String?
    }

    let record: LineOutput?
    let handleDelay: Duration
    let transientFailures: Int
    let outputTopic: String?
    let onHandled: (@Sendable (Int) -> Void)?

    private let attempts = Mutex<[String: Int]>([:])
    private let handledMessages = Mutex<[Handled]>([])

    /// - Parameters:
    ///   - record: where to append `begin`/`done` lines.
    ///   - outputTopic: produce each handled message again there.
    ///   - onHandled: called with the running count after each handled message.
    package init(
        record: LineOutput? = nil, handleDelay: Duration = .zero, transientFailures: Int = 0,
        outputTopic: String? = nil,
        onHandled: (@Sendable (Int) -> Void)? = nil
    ) {
        self.record = record
        self.handleDelay = handleDelay
        self.transientFailures = transientFailures
        self.outputTopic = outputTopic
        self.onHandled = onHandled
    }

    /// Every message handled so far, in the order handled.
    package var handled: [Handled] { handledMessages.withLock { $0 } }

    /// Attempts made for the message at `offset` of `topic`/`partition`.
    package func attemptCount(topic: String, partition: Int32, offset: Int64) -> Int {
        attempts.withLock { $0["\(topic) \(partition) \(offset)"] ?? 0 }
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> KafkaConsumerMessage {
        if message.value.starts(with: Array("poison".utf8)) { throw Undecodable() }
        return message
    }

    package func handle(_ message: KafkaConsumerMessage, context: MessageContext) async throws
        -> [KafkaProducerRecord]
    {
        let id = "\(message.topic) \(message.partition) \(message.offset)"
        record?.write("begin \(id) \(message.keyString ?? "-")\n")
        let attempt = attempts.withLock { attempts in
            attempts[id, default: 0] += 1
            return attempts[id]!
        }
        if message.value.starts(with: Array("flaky".utf8)), attempt <= transientFailures {
            throw HandlerFailure.forNow("flaky attempt \(attempt)")
        }
        if message.value.starts(with: Array("doomed".utf8)) {
            throw HandlerFailure.forNow("doomed attempt \(attempt)")
        }
        if handleDelay > .zero { try? await Task.sleep(for: handleDelay) }
        record?.write("done \(id) \(message.keyString ?? "-")\n")
        let count = handledMessages.withLock { handled in
            handled.append(
                Handled(
                    topic: message.topic, partition: message.partition, offset: message.offset, key: message.keyString))
            return handled.count
        }
        onHandled?(count)
        guard let outputTopic else { return [] }
        return [KafkaProducerRecord(topic: outputTopic, key: message.key, value: message.value)]
    }
}
