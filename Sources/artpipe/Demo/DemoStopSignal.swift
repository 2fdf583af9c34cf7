import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM, caught so the demo can stop its processes before it exits.
final class DemoStopSignal: @unchecked Sendable {
    private final class Received: Sendable {
        let number = Atomic<Int32>(0)
    }

    private let state = Received()
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for number in [SIGINT, SIGTERM] {
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [state] in state.number.store(number, ordering: .relaxed) }
            source.resume()
            sources.append(source)
        }
    }

    /// The signal received, if any.
    var received: Int32? {
        let number = state.number.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
