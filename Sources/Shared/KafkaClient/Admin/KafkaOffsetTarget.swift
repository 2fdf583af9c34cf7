import Foundation

/// Where a replay moves a consumer group's offsets, per partition.
package enum KafkaOffsetTarget: Sendable, Equatable, CustomStringConvertible {
    /// The oldest message the partition still holds.
    case earliest
    /// The first message written at or after this time (the end when none is).
    case dateTime(Date)
    /// This offset, clamped to what the partition holds.
    case offset(Int64)
    /// The committed offset moved by this many messages (negative: back), clamped.
    case shift(Int64)

    package var description: String {
        switch self {
        case .earliest: "the earliest offset"
        case .dateTime(let date): "the first message at or after \(date.formatted(.iso8601))"
        case .offset(let offset): "offset \(offset)"
        case .shift(let count): "the committed offset \(count >= 0 ? "+" : "")\(count)"
        }
    }
}
