/// HTML built byte by byte. Text is escaped for element content and quoted attributes; by
/// UTF-8 byte, which escapes exactly what escaping by Unicode scalar does (the five characters
/// are ASCII, and ASCII bytes never occur inside a multi-byte sequence).
struct HTMLText {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Markup built at run time from values that need no escaping (numbers, paths made here).
    mutating func markup(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    mutating func text(_ text: String) {
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

    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    /// The opening of every page: `title`, the shared style sheet at `style`.
    mutating func head(title: String, style: String) {
        raw("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
        text(title)
        raw("</title>\n<link rel=\"stylesheet\" href=\"")
        markup(style)
        raw("\"></head><body>\n")
    }
}
