/// HTML (or XML) built byte by byte: the one place artpipe escapes markup. Text is escaped for
/// element content and quoted attributes, by UTF-8 byte, which escapes exactly what escaping by
/// Unicode scalar does (the five characters are ASCII, and ASCII bytes never occur inside a
/// multi-byte sequence). Not by Character: a quote followed by a combining mark is one
/// Character that equals no quote, yet a parser still reads the quote and ends the attribute.
package struct HTMLText {
    package private(set) var bytes: [UInt8] = []

    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Bytes this type built before (a part kept between renders), as they are.
    package mutating func part(_ built: [UInt8]) { bytes.append(contentsOf: built) }

    /// `text` escaped, as a `String`: for markup built by interpolation.
    package static func escaped(_ text: String) -> String {
        var html = HTMLText(reservingCapacity: text.utf8.count)
        html.text(text)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    package mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Markup built at run time from values that need no escaping (numbers, paths made here).
    package mutating func markup(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    package mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): bytes.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): bytes.append(contentsOf: "&#39;".utf8)
                default: bytes.append(byte)
                }
            }
        }
    }

    package mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }
}
