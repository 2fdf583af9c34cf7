import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML element with its namespace resolved: enough of a document model for the small
/// answers read whole (a page of OAI-PMH records, an object store's listing).
package struct XMLTree: Sendable {
    package var namespace: String
    /// The local name, without prefix.
    package var name: String
    /// As the parser reports them; read through ``attribute(_:)``, which ignores prefixes.
    package var attributes: [String: String]
    package var children: [XMLTree]
    /// The element's own text, trimmed.
    package var text: String
    /// The element's own text as written: where spaces at either end are data (an object key).
    package var rawText: String

    /// The attribute with this local name, whatever its prefix (`rdf:resource`, `xml:lang`).
    package func attribute(_ localName: String) -> String? {
        if let value = attributes[localName] { return value }
        return attributes.first { $0.key.hasSuffix(":" + localName) }?.value
    }

    /// Child elements with this namespace and local name.
    package func children(_ namespace: String, _ name: String) -> [XMLTree] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    package func child(_ namespace: String, _ name: String) -> XMLTree? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    /// What a document may hold before it is refused as hostile: bounds that no answer of a
    /// repository or an object store comes near, and that keep a parse's stack, memory and time
    /// in proportion to the bytes read.
    package struct Limits: Sendable, Equatable {
        /// Elements open at once. Freeing a tree recurses once a level, so this also bounds the
        /// stack its teardown takes. libxml2's own default is 256; OAI-PMH records nest about 15.
        package var depth = 256
        /// Attributes on one element.
        package var attributes = 256
        /// The text of one element, or one attribute's value, in UTF-8 bytes.
        package var textBytes = 1 << 20
        /// The text and attribute values of the whole document, in UTF-8 bytes, beyond the size
        /// of the document itself: what entity references may add by expanding.
        package var expansionBytes = 1 << 20

        package init() {}

        package static let standard = Limits()
    }

    /// Parses a whole document. External entities are never fetched. A document past `limits`
    /// is refused with an ``XMLTreeError`` saying which bound it passed, never a crash.
    package static func parse(_ bytes: [UInt8], limits: Limits = .standard) throws -> XMLTree {
        // Foundation's parser ends the process on a name that is not UTF-8 (it force-unwraps
        // the name it decodes), and libxml2 can hand it one before it notices the bytes are
        // not: so a document in UTF-8 is checked first. One that declares an 8-bit encoding, or
        // starts with a UTF-16 or UTF-32 mark, reaches the parser through libxml2's converter,
        // whose output is UTF-8; one that declares UTF-16 or UTF-32 without a mark is read as
        // UTF-8 and checked.
        guard !Self.isUTF8(declaredBy: bytes) || Self.isValidUTF8(bytes) else {
            throw XMLTreeError(description: "refused XML: it is not UTF-8 and declares no other encoding")
        }
        let builder = Builder(limits: limits, documentBytes: bytes.count)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let refusal = builder.refusal {
            throw XMLTreeError(description: "refused XML (line \(parser.lineNumber)): \(refusal)")
        }
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw XMLTreeError(
                description: "not well-formed XML (line \(parser.lineNumber)): \(reason)")
        }
        return root
    }

    /// Whether `bytes` are to be read as UTF-8: no byte-order mark of UTF-16 or UTF-32, and no
    /// `encoding` in the XML declaration but UTF-8's (XML's default) or a 16- or 32-bit one,
    /// which without a mark libxml2 does not convert.
    static func isUTF8(declaredBy bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
            || bytes.starts(with: [0, 0, 0xFE, 0xFF])
        {
            return false
        }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard bytes[start...].starts(with: Array("<?xml".utf8)) else { return true }
        let head = bytes[start..<min(bytes.count, start + 256)]
        guard let end = head.firstIndex(of: UInt8(ascii: ">")) else { return true }
        let declaration = String(decoding: head[..<end], as: UTF8.self).lowercased()
        guard let name = declaration.range(of: "encoding") else { return true }
        let rest = declaration[name.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
        let encoding = rest.prefix { $0 != "\"" && $0 != "'" && $0 != " " && $0 != "?" }
        return encoding == "utf-8" || encoding == "utf8" || encoding.hasPrefix("utf-16")
            || encoding.hasPrefix("utf-32") || encoding.hasPrefix("ucs")
    }

    /// Whether `bytes` are UTF-8, checked without copying them.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private final class Builder: NSObject, XMLParserDelegate {
        let limits: Limits
        var stack: [XMLTree] = []
        var texts: [String] = []
        var root: XMLTree?
        /// The bound the document passed, once it has; parsing stops there.
        var refusal: String?
        /// UTF-8 bytes of text and attribute values the document may still deliver.
        var budget: Int

        init(limits: Limits, documentBytes: Int) {
            self.limits = limits
            let (sum, overflow) = documentBytes.addingReportingOverflow(limits.expansionBytes)
            budget = overflow ? Int.max : sum
        }

        private func refuse(_ parser: XMLParser, _ reason: String) {
            guard refusal == nil else { return }
            refusal = reason
            parser.abortParsing()
        }

        /// Takes `bytes` from the document's budget; false once the document has passed it.
        private func spend(_ parser: XMLParser, _ bytes: Int) -> Bool {
            guard refusal == nil else { return false }
            budget -= bytes
            if budget < 0 {
                refuse(parser, "its text expands past \(limits.expansionBytes) bytes beyond the document's own size")
                return false
            }
            return true
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            guard refusal == nil else { return }
            guard stack.count < limits.depth else {
                return refuse(parser, "elements nest deeper than \(limits.depth)")
            }
            guard attributes.count <= limits.attributes else {
                return refuse(parser, "an element (\(elementName)) has more than \(limits.attributes) attributes")
            }
            var spent = 0
            for value in attributes.values {
                let size = value.utf8.count
                guard size <= limits.textBytes else {
                    return refuse(parser, "an attribute of \(elementName) is longer than \(limits.textBytes) bytes")
                }
                spent += size
            }
            guard spend(parser, spent) else { return }
            stack.append(
                XMLTree(
                    namespace: namespaceURI ?? "", name: elementName, attributes: attributes, children: [], text: "",
                    rawText: ""))
            texts.append("")
        }

        /// libxml2 recovers from some errors and goes on, and Foundation's parser then reports
        /// success over a tree that is not the document's (elements closed where the document
        /// did not close them, and what follows placed elsewhere): every error refuses the
        /// document but libxml2's warnings (``warnings``) and its namespace errors (200-299: a
        /// prefix no `xmlns` declares is read as no namespace).
        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            let code = (parseError as NSError).code
            guard !(200..<300).contains(code), !Self.warnings.contains(code) else { return }
            refuse(parser, "not well-formed: libxml2's error \(code)\(Self.meaning(code).map { " (\($0))" } ?? "")")
        }

        /// libxml2's warnings (`XML_WAR_*` in its `xmlerror.h`): an undeclared entity beside an
        /// external DTD, a catalog instruction, an unknown XML version, a bad `xml:lang` or
        /// `xml:space`, a namespace URI that is not absolute, a colon in a name, an entity
        /// declared twice. A document with only these reads.
        static let warnings: Set<Int> = [27, 93, 97, 98, 99, 100, 102, 106, 107]

        /// What the errors hostile or broken answers cause most say.
        static func meaning(_ code: Int) -> String? {
            switch code {
            case 4: "no document, or not XML"
            case 5: "the document ends early"
            case 9: "a character XML forbids"
            case 26: "an entity that is not declared"
            case 73, 76: "an end tag that closes another element"
            case 89: "an entity that refers to itself"
            default: nil
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            append(parser, string)
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            append(parser, String(decoding: block, as: UTF8.self))
        }

        private func append(_ parser: XMLParser, _ string: String) {
            guard !texts.isEmpty, spend(parser, string.utf8.count) else { return }
            guard texts[texts.count - 1].utf8.count + string.utf8.count <= limits.textBytes else {
                return refuse(
                    parser, "the text of \(stack.last?.name ?? "an element") is longer than \(limits.textBytes) bytes")
            }
            texts[texts.count - 1] += string
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard refusal == nil, var element = stack.popLast(), let text = texts.popLast() else { return }
            element.rawText = text
            element.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}

/// A body that is not XML at all, or XML past ``XMLTree/Limits``. For good: the same bytes
/// parse the same way again (a caller that asks the server again classifies that itself).
package struct XMLTreeError: ClassifiedError {
    package let description: String
    package var failureClass: FailureClass { .forGood }
}
