import Logging
import Synchronization

/// One line a ``LoggedLines`` handler was given.
package struct LoggedLine: Sendable, CustomStringConvertible {
    package let level: Logger.Level
    package let message: String
    package let metadata: [String: String]
    package var description: String { "\(level) \(message) \(metadata)" }
}

/// A log handler that keeps what it is given, for tests that check what was said.
package struct LoggedLines: LogHandler {
    private let kept = Arc()
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info

    package init() {}

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package var lines: [LoggedLine] { kept.lines.withLock { $0 } }

    package func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        kept.lines.withLock {
            $0.append(
                LoggedLine(
                    level: event.level, message: "\(event.message)",
                    metadata: merged.mapValues { "\($0)" }))
        }
    }

    private final class Arc: Sendable {
        let lines = Mutex<[LoggedLine]>([])
    }
}
