import ArtpipeSupport
import Testing

/// XMLTree's bounds (``XMLTree/Limits``): a document past one is refused with an error that
/// names it, and a document within them reads as before.
@Suite("XMLTree's limits")
struct XMLTreeLimitsTests {
    static func nested(_ depth: Int, closed: Bool = true) -> [UInt8] {
        Array((String(repeating: "<a>", count: depth) + (closed ? String(repeating: "</a>", count: depth) : "")).utf8)
    }

    @Test("elements nested 100,000 deep (about 700 KB) are refused, not a stack overflow; 256 deep are read")
    func depth() throws {
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(Self.nested(100_000)) }
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(Self.nested(100_000, closed: false)) }
        let deep = try #require(throws: XMLTreeError.self) { try XMLTree.parse(Self.nested(257)) }
        #expect("\(deep)".contains("nest deeper than 256"))
        var tree = try XMLTree.parse(Self.nested(256))
        var depth = 1
        while let child = tree.children.first {
            (tree, depth) = (child, depth + 1)
        }
        #expect(depth == 256)
    }

    @Test("an element with more attributes than the limit, or a text longer, is refused; the error is for good")
    func attributesAndText() throws {
        let attributes = (0..<300).map { " a\($0)=\"v\"" }.joined()
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(Array("<r\(attributes)/>".utf8)) }
        let long = String(repeating: "x", count: (1 << 20) + 1)
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(Array("<r>\(long)</r>".utf8)) }
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(Array("<r a=\"\(long)\"/>".utf8)) }
        #expect(try XMLTree.parse(Array("<r a=\"v\">text</r>".utf8)).text == "text")
        let unclosed = try #require(throws: XMLTreeError.self) { try XMLTree.parse(Array("<r>".utf8)) }
        #expect(FailureClass.of(unclosed) == .forGood)
    }

    @Test("entities that expand past the budget are refused; an external entity is never read")
    func entities() throws {
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "\(String(repeating: "a", count: 1_000))">
            <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
            <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;">]><r>&d;</r>
            """
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(Array(laughs.utf8)) }
        let external = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#
        let read = try? XMLTree.parse(Array(external.utf8))
        #expect(read.map { !$0.text.contains("root:") } ?? true)
    }
}

extension XMLTreeLimitsTests {
    @Test(
        "a document in UTF-8 that is not is refused, and one declaring UTF-16 without its mark; one that declares Latin-1, or starts with UTF-16's mark, is read converted"
    )
    func encodings() throws {
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(Array("<r>caf".utf8) + [0xE9] + Array("</r>".utf8)) }
        #expect(throws: XMLTreeError.self) {
            try XMLTree.parse(Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><r>".utf8) + [0xFF] + Array("</r>".utf8))
        }
        #expect(throws: XMLTreeError.self) {
            try XMLTree.parse(
                Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?><r".utf8) + [0xC3, 0x28] + Array("/>".utf8))
        }
        let latin = Array("<?xml version='1.0' encoding='ISO-8859-1'?><r>caf".utf8) + [0xE9] + Array("</r>".utf8)
        #expect(try XMLTree.parse(latin).text == "café")
        let utf16: [UInt8] = [0xFF, 0xFE] + "<r>café</r>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try XMLTree.parse(utf16).text == "café")
    }

    @Test("a document with only libxml2's warnings (an XML version it does not know, a relative namespace) is read")
    func warningsRead() throws {
        let tree = try XMLTree.parse(Array(#"<?xml version="1.1"?><r xmlns="relative/ns"><a>1</a></r>"#.utf8))
        #expect(tree.children.map(\.text) == ["1"])
    }
}
