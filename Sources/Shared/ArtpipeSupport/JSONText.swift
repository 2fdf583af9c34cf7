/// JSON text built byte by byte, in a fixed key order: the published index and the log lines
/// are written this way, because it is several times faster than `JSONEncoder` and its bytes
/// depend on nothing else. The one place artpipe escapes JSON.
package struct JSONText {
    package private(set) var bytes: [UInt8] = []

    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Bytes this type built before (a part kept between renders), as they are.
    package mutating func part(_ built: [UInt8]) { bytes.append(contentsOf: built) }

    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Text made at run time that needs no escaping (a timestamp, a number's digits).
    package mutating func verbatim(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    package mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A string literal: quotes, backslashes and control characters escaped, everything else as
    /// UTF-8; with `inScript`, `<`, `>` and `&` too, so the text may stand in an HTML `<script>`.
    package mutating func string(_ value: String, inScript: Bool = false) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "<") where inScript, UInt8(ascii: ">") where inScript,
                    UInt8(ascii: "&") where inScript:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0x00..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An object of counts, its members in key order: `{"failed":1,"ok":5}`.
    package mutating func counts(_ counts: [String: Int]) {
        bytes.append(UInt8(ascii: "{"))
        for (number, key) in counts.keys.sorted().enumerated() {
            if number > 0 { bytes.append(UInt8(ascii: ",")) }
            string(key)
            bytes.append(UInt8(ascii: ":"))
            int(counts[key] ?? 0)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The text as a `String`.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `"key":` with a leading comma unless it is the first member.
    package mutating func key(_ key: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        raw("\":")
    }
}
