/// Bad flags, environment or set-up: the command prints it on one line and exits with code 2.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
