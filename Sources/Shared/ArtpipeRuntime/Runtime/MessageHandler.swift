import KafkaClient
import Logging

/// One worker's logic: how a message is decoded and what handling it produces.
///
/// The runtime commits a message's offset only after `handle` returned and every record it
/// returned is acknowledged by the broker, so `handle` must be idempotent: it may see the
/// same message again after a crash, a rebalance or a replay.
package protocol MessageHandler: Sendable {
    associatedtype Input: Sendable

    /// Turns a message into the handler's input. A thrown error marks the message as poison:
    /// it goes to the dead letters with the error as the reason.
    func decode(_ message: KafkaConsumerMessage) throws -> Input

    /// Does the work and returns the records to produce.
    ///
    /// Throw errors as they come: the runtime reads each one's ``FailureClass`` once. One for
    /// good sends the message to the dead letters at once; one for the moment is retried with
    /// backoff (no sooner than its `retryAfter`), and dead-lettered once retried long enough.
    /// ``HandlerFailure`` adds outputs and headers to a retry, or says what no error says.
    func handle(_ input: Input, context: MessageContext) async throws -> [KafkaProducerRecord]

    /// Hears whether the records `handle` returned for `message` were acknowledged by the
    /// broker (false: they were not, and the message is delivered again or dead-lettered): for
    /// a handler whose state runs ahead of the topics it writes. Does nothing by default.
    func outputsSettled(of message: KafkaConsumerMessage, acknowledged: Bool) async

    /// Hears that `message` and every message of its partition before it are done with, as
    /// the offset the runtime may commit now says (handled and their outputs acknowledged, put on
    /// a retry topic, or dead-lettered): for a handler whose own copy learns it sooner than from
    /// the group's next commit. Heard only while the partition's lease is active, before a
    /// revoke of it returns. Does nothing by default.
    func finished(_ message: KafkaConsumerMessage)

    /// Whether `message`'s partition is held back: while it says so the runtime neither handles
    /// nor commits the message (it asks again in short steps), so Kafka delivers it again after
    /// a restart or to the partition's next owner. For a handler that must not go on from where
    /// its group stands (its input no longer holds what its state needs). False by default.
    func holds(_ message: KafkaConsumerMessage) -> Bool

    /// Whether consecutive messages of a partition may share one round trip to the broker:
    /// each is handled as it comes, their outputs are sent together, and the last one's offset
    /// is finished once all are acknowledged (each still hears ``outputsSettled(of:acknowledged:)``).
    /// For a handler whose next message does not wait on the last one's outputs; the runtime
    /// uses it only without a retry schedule. False by default.
    var sendsInRuns: Bool { get }

    /// The most consecutive messages of a partition handed to ``handle(together:)`` at once;
    /// 1 (the default): each goes to ``handle(_:context:)`` alone. Used only with ``sendsInRuns``.
    var handledTogether: Int { get }

    /// Handles consecutive messages of one partition, in order, as ``handle(_:context:)`` would
    /// one after another: for a handler whose messages share a cost (a thread hop, a lock). Returns
    /// the outputs of each message handled, up to the first whose handling threw, and that
    /// error; the messages after it are not handled (the runtime hands them over again). By
    /// default, ``handle(_:context:)`` on each.
    func handle(together inputs: [(input: Input, context: MessageContext)]) async -> HandledTogether

    /// The changelog of the handler's own state, when it keeps one: its records and the others
    /// a message's handling (or a run's) returns are produced in the order it says. Nil by default.
    var changelog: StoreChangelog? { get }
}

extension MessageHandler {
    package var handledTogether: Int { 1 }

    package func handle(together inputs: [(input: Input, context: MessageContext)]) async -> HandledTogether {
        await handleOneByOne(inputs)
    }

    /// ``handle(_:context:)`` on each input in order, up to the first that throws: the default
    /// ``handle(together:)``.
    package func handleOneByOne(_ inputs: [(input: Input, context: MessageContext)]) async -> HandledTogether {
        var handled = HandledTogether()
        for (input, context) in inputs {
            do {
                handled.outputs.append(try await handle(input, context: context))
            } catch {
                handled.failure = error
                break
            }
        }
        return handled
    }

    package func outputsSettled(of message: KafkaConsumerMessage, acknowledged: Bool) async {}
    package func finished(_ message: KafkaConsumerMessage) {}
    package func holds(_ message: KafkaConsumerMessage) -> Bool { false }
    package var sendsInRuns: Bool { false }
    package var changelog: StoreChangelog? { nil }
}
