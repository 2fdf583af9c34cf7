import ArtpipeSupport
import Foundation
import Testing

@Suite("JSON read back by hand")
struct JSONScannerTests {
    @Test("what JSONText writes reads back: strings of every kind, integers to their limits, counts")
    func roundTrip() throws {
        let strings = [
            "", "plain", "quote \" and \\ backslash", "controls \u{0}\u{1f}\t\n\r", "Éva 葛飾北斎 🎨", "a/b",
            "\u{7f}\u{ffff}",
        ]
        for value in strings {
            var json = JSONText()
            json.string(value)
            json.byte(UInt8(ascii: ","))
            json.int(Int.min)
            json.byte(UInt8(ascii: ","))
            json.int(Int.max)
            json.byte(UInt8(ascii: ","))
            json.counts(["ok": 3, value: -2])
            var scanner = JSONScanner(json.bytes)
            #expect(scanner.string() == value, "\(value.debugDescription)")
            #expect(scanner.skip(byte: UInt8(ascii: ",")) && scanner.int() == Int.min)
            #expect(scanner.skip(byte: UInt8(ascii: ",")) && scanner.int() == Int.max)
            #expect(scanner.skip(byte: UInt8(ascii: ",")) && scanner.counts() == ["ok": 3, value: -2])
            #expect(scanner.isAtEnd)
            // What the decoder reads from the same string.
            var alone = JSONText()
            alone.string(value)
            #expect(try JSONDecoder().decode(String.self, from: Data(alone.bytes)) == value)
        }
    }

    @Test("nil at what it does not expect: a bad escape, a lone surrogate, a raw control, no digits, an overflow")
    func refuses() {
        for text in [#""\x""#, #""\ud800""#, #""\udc00x""#, "\"a\u{1}\"", #""open"#, "-", "", "9223372036854775808"] {
            var scanner = JSONScanner(Array(text.utf8))
            #expect(scanner.string() == nil && scanner.int() == nil, "\(text.debugDescription)")
        }
    }
}
