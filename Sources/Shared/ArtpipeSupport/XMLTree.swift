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

    /// Parses a whole document. External entities are never fetched.
    package static func parse(_ bytes: [UInt8]) throws -> XMLTree {
        let builder = Builder()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw XMLTreeError(
                description: "not well-formed XML (line \(parser.lineNumber)): \(reason)")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLTree] = []
        var texts: [String] = []
        var root: XMLTree?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            stack.append(
                XMLTree(
                    namespace: namespaceURI ?? "", name: elementName, attributes: attributes, children: [], text: "",
                    rawText: ""))
            texts.append("")
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !texts.isEmpty { texts[texts.count - 1] += string }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            if !texts.isEmpty { texts[texts.count - 1] += String(decoding: block, as: UTF8.self) }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard var element = stack.popLast(), let text = texts.popLast() else { return }
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

/// A body that is not XML at all.
package struct XMLTreeError: Error, CustomStringConvertible {
    package let description: String
}
