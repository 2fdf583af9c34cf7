import Foundation

extension Duration {
    /// The duration in seconds, as a floating-point number.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole milliseconds, rounded down, held at the ends of `Int64`: what C APIs' timeouts take.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return Self.saturating(seconds, times: 1_000, plus: attoseconds / 1_000_000_000_000_000)
    }

    /// ``milliseconds`` held within `Int32`, as librdkafka's calls take a timeout.
    package var timeoutMilliseconds: Int32 { Int32(clamping: milliseconds) }

    /// Whole nanoseconds, rounded down, held at the ends of `Int64`.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return Self.saturating(seconds, times: 1_000_000_000, plus: attoseconds / 1_000_000_000)
    }

    private static func saturating(_ value: Int64, times scale: Int64, plus rest: Int64) -> Int64 {
        let (product, overflow) = value.multipliedReportingOverflow(by: scale)
        guard !overflow else { return value < 0 ? .min : .max }
        let (sum, over) = product.addingReportingOverflow(rest)
        return over ? (product < 0 ? .min : .max) : sum
    }

    /// A duration from a number of seconds given as a flag (`--drain-timeout 2.5`): a value
    /// that is not a number is none, and one past a billion seconds is a billion seconds.
    package static func seconds(fromFlag value: Double) -> Duration {
        guard !value.isNaN else { return .zero }
        return .milliseconds(Int64(min(max(value, -1e9), 1e9) * 1_000))
    }

    /// A duration written with a unit, as flags take it: `500ms`, `30s`, `10m`, `2h`, `1d`;
    /// a bare number is seconds. Nil for anything else, negative values included.
    package init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(suffix: String, seconds: Double)] = [
            ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400),
        ]
        var number = trimmed
        var scale = 1.0
        if let unit = units.first(where: { trimmed.hasSuffix($0.suffix) }) {
            number = String(trimmed.dropLast(unit.suffix.count))
            scale = unit.seconds
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale < 1e9 else { return nil }
        self = .milliseconds(Int64((value * scale * 1_000).rounded()))
    }

    /// The duration in its two largest whole units, for people: `1d 2h`, `5m 3s`, `12s`.
    package var wholeUnitsDescription: String {
        var rest = Int64(seconds.rounded())
        let units: [(String, Int64)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        var parts: [String] = []
        for (name, size) in units where rest >= size || (name == "s" && parts.isEmpty) {
            parts.append("\(rest / size)\(name)")
            rest %= size
            if parts.count == 2 { break }
        }
        return parts.joined(separator: " ")
    }
}
