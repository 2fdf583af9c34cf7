/// A message that cannot be decoded: poison, sent to the dead letters.
package struct MessageDecodingError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
