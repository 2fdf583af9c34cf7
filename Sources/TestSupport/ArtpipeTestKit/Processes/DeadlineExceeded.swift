/// Thrown when a condition did not hold before its deadline.
package struct DeadlineExceeded: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}
