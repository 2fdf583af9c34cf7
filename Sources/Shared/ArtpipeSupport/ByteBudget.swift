import Synchronization

/// At most `capacity` bytes held at a time, for bounding the memory that bodies in flight take
/// (a budget of bytes, not a count of requests). Waiters are served in arrival order; one
/// larger than the whole budget waits until nothing else is held, then runs alone.
package final class ByteBudget: Sendable {
    private struct State {
        var inUse = 0
        var peak = 0
        var waiters: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    let capacity: Int
    private let state = Mutex(State())

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Requests waiting for room now.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// The most bytes ever held at once.
    package var peakInUse: Int { state.withLock { $0.peak } }

    /// What `acquire` takes for a request of `bytes`: never more than the whole budget.
    package func charge(for bytes: Int) -> Int { min(max(0, bytes), capacity) }

    /// Waits until `charge(for: bytes)` fits, then holds it until ``release(_:)``.
    package func acquire(_ bytes: Int) async {
        let charge = charge(for: bytes)
        let granted = state.withLock { state in
            guard state.waiters.isEmpty, state.inUse + charge <= capacity else { return false }
            hold(charge, in: &state)
            return true
        }
        if granted { return }
        await withCheckedContinuation { continuation in
            let grantedNow = state.withLock { state in
                if state.waiters.isEmpty, state.inUse + charge <= capacity {
                    hold(charge, in: &state)
                    return true
                }
                state.waiters.append((charge, continuation))
                return false
            }
            if grantedNow { continuation.resume() }
        }
    }

    /// Gives back what `acquire(bytes)` took, and lets the waiters that now fit go, in order.
    package func release(_ bytes: Int) {
        let charge = charge(for: bytes)
        let ready: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.inUse -= charge
            var ready: [CheckedContinuation<Void, Never>] = []
            while let first = state.waiters.first, state.inUse + first.bytes <= capacity {
                state.waiters.removeFirst()
                hold(first.bytes, in: &state)
                ready.append(first.continuation)
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    private func hold(_ charge: Int, in state: inout State) {
        state.inUse += charge
        state.peak = max(state.peak, state.inUse)
    }
}
