/// Reads JSON that ``JSONText`` (or `JSONEncoder`) wrote in a known member order, byte by byte:
/// for the few large documents read again and again, where `JSONDecoder` cost most of a round.
/// Each read answers nil at anything it does not expect (whitespace included), so a caller falls
/// back to `JSONDecoder` rather than guess.
package struct JSONScanner {
    private let bytes: [UInt8]
    private var at = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte was read.
    package var isAtEnd: Bool { at == bytes.count }

    /// Reads `text` if it comes next.
    package mutating func skip(_ text: StaticString) -> Bool {
        let matches = text.withUTF8Buffer { literal in
            bytes.count - at >= literal.count && literal.indices.allSatisfy { bytes[at + $0] == literal[$0] }
        }
        if matches { at += text.utf8CodeUnitCount }
        return matches
    }

    /// Reads one byte if it is `byte`.
    package mutating func skip(byte: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    /// An integer: an optional minus and digits.
    package mutating func int() -> Int? {
        let negative = skip(byte: UInt8(ascii: "-"))
        // Gathered below zero: `Int.min` has no positive counterpart.
        var (value, digits) = (0, 0)
        while at < bytes.count, (48...57).contains(bytes[at]) {
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.subtractingReportingOverflow(Int(bytes[at] - 48))
            guard !overflowTimes, !overflowSum else { return nil }
            (value, digits, at) = (sum, digits + 1, at + 1)
        }
        guard digits > 0, negative || value != .min else { return nil }
        return negative ? value : -value
    }

    /// A string literal, its escapes undone (`\/` and `\uXXXX` with surrogate pairs included).
    package mutating func string() -> String? {
        guard skip(byte: UInt8(ascii: "\"")) else { return nil }
        let start = at
        // The common case: no escape, the bytes as they are.
        while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 {
            at += 1
        }
        guard at < bytes.count else { return nil }
        if bytes[at] == UInt8(ascii: "\"") {
            at += 1
            return String(validating: bytes[start..<(at - 1)], as: UTF8.self)
        }
        var text = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""): return String(validating: text, as: UTF8.self)
            case 0..<0x20: return nil
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { return nil }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard skip("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    UTF8.encode(unicode) { text.append($0) }
                default: return nil
                }
            default: text.append(byte)
            }
        }
        return nil
    }

    /// An object of counts, as ``JSONText/counts(_:)`` writes it.
    package mutating func counts() -> [String: Int]? {
        guard skip(byte: UInt8(ascii: "{")) else { return nil }
        var counts: [String: Int] = [:]
        if skip(byte: UInt8(ascii: "}")) { return counts }
        repeat {
            guard let key = string(), skip(byte: UInt8(ascii: ":")), let value = int() else { return nil }
            counts[key] = value
        } while skip(byte: UInt8(ascii: ","))
        return skip(byte: UInt8(ascii: "}")) ? counts : nil
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - at >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 97...102: digit = byte - 87
            case 65...70: digit = byte - 55
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }
}
