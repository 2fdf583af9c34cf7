import Foundation
import Logging

/// Process-wide logging set-up, done once by the executable.
package enum ArtpipeLogging {
    /// JSON lines when stdout is not a terminal, readable text when it is.
    package static func bootstrap(level: Logger.Level) {
        let terminal = isatty(STDOUT_FILENO) == 1
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                terminal ? StreamLogHandler.standardOutput(label: label) : JSONLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
