/// Bad flags, environment or set-up: the command prints it on one line and exits with code 2.
package struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
