/// Consumer settings that make the embedded broker's group protocol quick enough for tests.
package enum EmbeddedBrokerSettings {
    package static let consumer = ["session.timeout.ms": "6000", "heartbeat.interval.ms": "500"]

    /// The same as `--kafka` flags.
    package static var flags: [String] {
        consumer.sorted { $0.key < $1.key }.flatMap { ["--kafka", "\($0.key)=\($0.value)"] }
    }
}
