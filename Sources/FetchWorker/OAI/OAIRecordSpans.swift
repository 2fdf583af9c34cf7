import Foundation

/// Where each `record` element of a `ListRecords` answer lies in its bytes, found without an
/// XML parser: how a page with one record that is not well-formed (a character XML forbids, a
/// tag cut short inside its metadata) still gives every other record. Record elements nested
/// in metadata (MARC's `record`) are counted, so only the top level is split.
struct OAIRecordSpans {
    /// The answer before the first record: the envelope's start.
    let head: ArraySlice<UInt8>
    /// Each top-level record, from `<record` to its `</record>`.
    let records: [Range<Int>]
    /// The answer after the last record: the token and the envelope's end.
    let tail: ArraySlice<UInt8>

    /// Nil when the answer holds no record element, or its record tags do not balance.
    init?(_ bytes: [UInt8]) {
        var records: [Range<Int>] = []
        var depth = 0
        var start = 0
        var index = 0
        while let open = Self.nextTag(in: bytes, from: index) {
            index = open.end
            if open.isClosing {
                depth -= 1
                if depth < 0 { return nil }
                if depth == 0 { records.append(start..<open.end) }
            } else {
                if depth == 0 { start = open.start }
                depth += 1
            }
        }
        guard depth == 0, let first = records.first, let last = records.last else { return nil }
        head = bytes[..<first.lowerBound]
        tail = bytes[last.upperBound...]
        self.records = records
    }

    /// One record's answer: the envelope around that record alone.
    func document(_ record: Range<Int>, of bytes: [UInt8]) -> [UInt8] {
        Array(head) + bytes[record] + Array(tail)
    }

    /// The next `<record…>` or `</record>` tag, with or without a namespace prefix; a
    /// self-closing `<record/>` opens and closes, so it is skipped.
    private static func nextTag(in bytes: [UInt8], from: Int) -> (start: Int, end: Int, isClosing: Bool)? {
        let name = Array("record".utf8)
        var index = from
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            var cursor = index + 1
            let isClosing = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "/")
            if isClosing { cursor += 1 }
            // An optional prefix: letters, digits, `_ - .` up to a colon.
            var nameStart = cursor
            var scan = cursor
            while scan < bytes.count, isNameByte(bytes[scan]) { scan += 1 }
            if scan < bytes.count, bytes[scan] == UInt8(ascii: ":") { nameStart = scan + 1 }
            let nameEnd = nameStart + name.count
            guard nameEnd < bytes.count, Array(bytes[nameStart..<nameEnd]) == name else {
                index += 1
                continue
            }
            let after = bytes[nameEnd]
            guard
                after == UInt8(ascii: ">") || after == UInt8(ascii: " ") || after == UInt8(ascii: "\t")
                    || after == UInt8(ascii: "\n") || after == UInt8(ascii: "\r") || after == UInt8(ascii: "/")
            else {
                index += 1
                continue
            }
            guard let close = bytes[nameEnd...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            if !isClosing, bytes[close - 1] == UInt8(ascii: "/") {
                index = close + 1
                continue
            }
            return (index, close + 1, isClosing)
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// The record's header identifier, read as text: what a dead letter of a record that does
    /// not parse can still say it is.
    static func identifier(in record: ArraySlice<UInt8>) -> String {
        let text = String(decoding: record, as: UTF8.self)
        guard let open = text.range(of: "identifier>") else { return "" }
        let rest = text[open.upperBound...]
        guard let close = rest.firstIndex(of: "<") else { return "" }
        return rest[..<close].trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
