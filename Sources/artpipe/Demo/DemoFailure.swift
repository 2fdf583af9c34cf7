/// Why the demo stopped before the index was complete.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String
}
