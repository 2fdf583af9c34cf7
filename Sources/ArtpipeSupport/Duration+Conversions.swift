extension Duration {
    /// The duration in seconds, as a floating-point number.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole milliseconds, rounded down: what C APIs' timeouts take.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }

    /// Whole nanoseconds, rounded down.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// A duration from a number of seconds given as a flag (`--drain-timeout 2.5`).
    package static func seconds(fromFlag value: Double) -> Duration {
        .milliseconds(Int64(value * 1_000))
    }
}
