/// xorshift64*: a seedable generator whose sequence is fixed by this file alone, so a fuzz
/// input is named by its campaign's seed and its number and made again from them anywhere.
package struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Never a zero state, which xorshift would keep.
    package init(seed: UInt64) {
        state = seed == 0 ? 0x2545_F491_4F6C_DD1D : seed
    }

    package mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A uniform-enough integer below `bound` (at least 1).
    package mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }

    package mutating func pick<T>(_ values: [T]) -> T {
        values[below(values.count)]
    }
}
