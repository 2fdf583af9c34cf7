import Dispatch
import Foundation
import Synchronization

/// SIGTERM and SIGINT, caught from the moment it is made: a signal that arrives while a
/// process is still starting (connecting, checking topics) is kept, not lost, and not left
/// to the default action that would kill the process with nothing cleaned up.
public final class ShutdownSignals: @unchecked Sendable {
    private final class Received: Sendable {
        let number = Atomic<Int32>(0)
    }

    private let state = Received()
    private var sources: [any DispatchSourceSignal] = []
    private let stream: AsyncStream<Int32>

    public init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        for number in [SIGTERM, SIGINT] {
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [state] in
                state.number.store(number, ordering: .relaxed)
                continuation.yield(number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal received, if any yet.
    public var received: Int32? {
        let number = state.number.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Waits for a signal (returns at once if one came already); nil when cancelled.
    public func next() async -> Int32? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}
