import Foundation

/// Where each `record` element of a `ListRecords` answer lies in its bytes, found without an
/// XML parser: how a page with one record that is not well-formed (a character XML forbids, a
/// tag cut short inside its metadata) still gives every other record.
///
/// The records are the children of `ListRecords`: one starts at a `<record` tag, and ends at
/// the first `</record>` that the next record's start, the `resumptionToken` or the end of
/// `ListRecords` follows (past white space). So a `record` element nested in metadata (MARC's),
/// or a record tag a hostile record holds unbalanced, ends no record: it costs at most the
/// record that holds it.
struct OAIRecordSpans {
    /// The answer before the first record: the envelope's start.
    let head: ArraySlice<UInt8>
    /// Each top-level record, from `<record` to its `</record>`.
    let records: [Range<Int>]
    /// The answer after the last record: the token and the envelope's end.
    let tail: ArraySlice<UInt8>

    /// Nil when the answer holds no record element, or its last record never ends.
    init?(_ bytes: [UInt8]) {
        guard var start = Self.nextTag(in: bytes, from: 0, closing: false)?.start else { return nil }
        var records: [Range<Int>] = []
        var (index, ended) = (start, false)
        while let close = Self.nextTag(in: bytes, from: index, closing: true) {
            index = close.end
            var after = close.end
            while after < bytes.count, Self.isSpace(bytes[after]) { after += 1 }
            if let next = Self.tagName(in: bytes, at: after) {
                if !next.isClosing && next.name == "record" {
                    records.append(start..<close.end)
                    (start, index) = (after, after + 1)
                    continue
                }
                if (!next.isClosing && next.name == "resumptionToken") || (next.isClosing && next.name == "ListRecords")
                {
                    records.append(start..<close.end)
                    ended = true
                    break
                }
            }
        }
        guard ended, let first = records.first, let last = records.last else { return nil }
        head = bytes[..<first.lowerBound]
        tail = bytes[last.upperBound...]
        self.records = records
    }

    /// One record's answer: the envelope around that record alone.
    func document(_ record: Range<Int>, of bytes: [UInt8]) -> [UInt8] {
        Array(head) + bytes[record] + Array(tail)
    }

    /// The next `<record…>` tag (`closing` false) or `</record>` (true), with or without a
    /// namespace prefix; a self-closing `<record/>` is no record.
    private static func nextTag(in bytes: [UInt8], from: Int, closing: Bool) -> (start: Int, end: Int)? {
        var index = from
        while let open = bytes[min(index, bytes.count)...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            guard let tag = tagName(in: bytes, at: open), tag.isClosing == closing, tag.name == "record" else {
                continue
            }
            guard let end = bytes[tag.nameEnd...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            if !closing, bytes[end - 1] == UInt8(ascii: "/") { continue }
            return (open, end + 1)
        }
        return nil
    }

    /// The local name of the tag that starts at `index` (`<name`, `</name`, `<prefix:name`),
    /// and where it ends; nil where no tag starts there, or a name is followed by a byte a tag
    /// name cannot be followed by.
    private static func tagName(in bytes: [UInt8], at index: Int) -> (name: String, isClosing: Bool, nameEnd: Int)? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { return nil }
        var cursor = index + 1
        let isClosing = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "/")
        if isClosing { cursor += 1 }
        var nameStart = cursor
        var scan = cursor
        while scan < bytes.count, isNameByte(bytes[scan]) || bytes[scan] == UInt8(ascii: ":") {
            if bytes[scan] == UInt8(ascii: ":") { nameStart = scan + 1 }
            scan += 1
        }
        guard scan > nameStart, scan < bytes.count,
            isSpace(bytes[scan]) || bytes[scan] == UInt8(ascii: ">") || bytes[scan] == UInt8(ascii: "/")
        else { return nil }
        return (String(decoding: bytes[nameStart..<scan], as: UTF8.self), isClosing, scan)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
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
