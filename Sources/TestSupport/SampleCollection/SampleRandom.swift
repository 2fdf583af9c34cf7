/// SplitMix64: a small deterministic generator, so a seed gives the same collection on every
/// machine and Swift version (the standard library's generator is not seedable).
package struct SampleRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range`, drawn without the standard library's algorithm so the
    /// sequence is fixed by this file alone.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with probability `rate`.
    mutating func chance(_ rate: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < rate
    }

    mutating func pick<T>(_ values: [T]) -> T {
        values[int(in: 0...(values.count - 1))]
    }
}
