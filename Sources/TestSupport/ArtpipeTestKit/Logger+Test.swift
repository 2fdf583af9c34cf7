import Logging

extension Logger {
    /// Warnings and errors only, so test output stays readable.
    package static var test: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }
}
