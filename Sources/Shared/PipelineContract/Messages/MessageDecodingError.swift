/// A message that cannot be decoded: poison, sent to the dead letters.
public struct MessageDecodingError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
