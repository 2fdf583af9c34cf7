import ArtpipeSupport
import Foundation

/// Reads `oai_dc`, the simple Dublin Core every OAI-PMH repository must offer.
///
/// - Object number: the first `dc:identifier` that is not a URL, else the record's OAI identifier.
/// - Title: `dc:title` by language, as every format chooses.
/// - Artist: the first `dc:creator`, as written ("Last, First" stays so).
/// - Image: the first `dc:identifier`, `dc:relation` or `dc:description` that is a whole http(s)
///   URL whose path ends like an image (`.jpg`, `.png`, `.tif`, `.jp2`…); otherwise none: Dublin
///   Core has no field for an image, and a landing page is not one.
struct DublinCoreRecordReader: Sendable {
    var text: OAITextChoice

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "tif", "tiff", "webp", "jp2"]

    /// `header`'s record with what its metadata says.
    func read(_ dc: XMLTree, header: OAIRecord) throws -> OAIRecord {
        let identifiers = dc.children(OAINamespace.dc, "identifier").map { OAITextChoice.collapsed($0.text) }
        let number = identifiers.first { !$0.isEmpty && !Self.isURL($0) } ?? header.identifier
        let title = text.pick(dc.children(OAINamespace.dc, "title").map { ($0.attribute("lang") ?? "", $0.text) })
        let creator = OAITextChoice.first(dc.children(OAINamespace.dc, "creator").map(\.text))
        let linked = ["identifier", "relation", "description"].flatMap { dc.children(OAINamespace.dc, $0) }
            .map { OAITextChoice.collapsed($0.text) }
        var record = header
        (record.objectNumber, record.title, record.creator, record.imageURL) =
            (number, title ?? "", creator ?? "", linked.first(where: Self.isImageURL))
        return record
    }

    private static func isURL(_ text: String) -> Bool {
        text.hasPrefix("http://") || text.hasPrefix("https://")
    }

    static func isImageURL(_ text: String) -> Bool {
        guard isURL(text), !text.contains(" "), let path = URLComponents(string: text)?.path else { return false }
        guard let dot = path.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(path[path.index(after: dot)...].lowercased())
    }
}
