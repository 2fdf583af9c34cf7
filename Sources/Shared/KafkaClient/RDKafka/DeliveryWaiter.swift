import CKafka
import Synchronization

/// Waits for the delivery reports of a group of produced records.
///
/// Each in-flight record holds one retained reference, released by the delivery callback.
final class DeliveryWaiter: Sendable {
    private struct State {
        var remaining: Int
        var firstError: KafkaError?
        var continuation: CheckedContinuation<Void, any Error>?
    }

    private let state: Mutex<State>

    init(expected: Int) {
        state = Mutex(State(remaining: expected))
    }

    func delivered(error: rd_kafka_resp_err_t) {
        let failure = error == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError("delivery failed", rdError: error)
        settle(count: 1, error: failure)
    }

    /// Gives up on records that were never enqueued.
    func abandon(count: Int, error: KafkaError) {
        settle(count: count, error: error)
    }

    private func settle(count: Int, error: KafkaError?) {
        let ready: (CheckedContinuation<Void, any Error>, KafkaError?)? = state.withLock { state in
            state.remaining -= count
            if state.firstError == nil { state.firstError = error }
            guard state.remaining == 0, let continuation = state.continuation else { return nil }
            state.continuation = nil
            return (continuation, state.firstError)
        }
        if let (continuation, error) = ready {
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }

    /// Returns when every record is acknowledged; throws the first delivery error.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let finished: KafkaError?? = state.withLock { state in
                if state.remaining == 0 { return .some(state.firstError) }
                state.continuation = continuation
                return .none
            }
            if case .some(let error) = finished {
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}
