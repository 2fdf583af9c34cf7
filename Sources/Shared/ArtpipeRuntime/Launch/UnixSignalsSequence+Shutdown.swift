import Foundation
import UnixSignals

extension UnixSignalsSequence {
    /// SIGTERM and SIGINT, trapped from now on: a signal that arrives while the process is
    /// still starting is kept for whoever iterates, not left to the default action that would
    /// end the process with nothing cleaned up.
    package static func shutdownSignals() async -> UnixSignalsSequence {
        // Dispatch delivers the signals; ignoring them keeps any other thread from taking
        // the default action first.
        for number in [SIGTERM, SIGINT] { _ = signal(number, SIG_IGN) }
        return await UnixSignalsSequence(trapping: .sigterm, .sigint)
    }
}
