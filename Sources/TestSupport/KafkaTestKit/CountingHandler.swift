import ArtpipeRuntime
import KafkaClient
import Logging
import Synchronization

/// A handler that does nothing but count: what the runtime itself costs.
package final class CountingHandler: MessageHandler {
    private let count = Atomic<Int>(0)
    private let onHandled: @Sendable (Int) -> Void

    package init(onHandled: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.onHandled = onHandled
    }

    package var handled: Int { count.load(ordering: .relaxed) }

    package func decode(_ message: KafkaConsumerMessage) throws {}

    package func handle(_ input: Void, context: MessageContext) async throws -> [KafkaProducerRecord] {
        onHandled(count.add(1, ordering: .relaxed).newValue)
        return []
    }
}
