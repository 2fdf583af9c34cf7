import ArtpipeSupport
import Foundation

/// Reads `oai_dc`, the simple Dublin Core every OAI-PMH repository must offer.
///
/// Each field is read from `dc:<field>`, then from `dcterms:<field>`, which repositories write into
/// `oai_dc` records too.
/// - Object number: the first identifier that is not a URL, else the record's OAI identifier.
/// - Title: by language, as every format chooses; none is an empty title.
/// - Artist: the first creator, as written ("Last, First" stays so), without a role written after
///   its life dates (``OAICreatorName``).
/// - Image: the first identifier, relation or description that is a whole http(s) URL whose path
///   ends like an image (`.jpg`, `.png`, `.tif`, `.jp2`…); else the first http(s) URL of an element
///   a repository added for its image (`image`, `thumbnail`, `preview`… in any namespace);
///   otherwise none: Dublin Core has no field for an image, and a landing page is not one.
/// - Date: the first date, as written.
/// - Rights: the first rights that is an http(s) URI, else the first rights text.
/// - Landing page: the first identifier that is an http(s) URL and not the image, nor a URL that
///   ends like an image.
struct DublinCoreRecordReader: Sendable {
    var text: OAITextChoice

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "tif", "tiff", "webp", "jp2"]
    /// Local names (lowercased) of the elements repositories add to `oai_dc` for a record's image.
    static let imageElements: Set<String> = [
        "image", "imageurl", "thumbnail", "thumbnailurl", "thumb", "preview", "isshownby",
    ]

    /// `header`'s record with what its metadata says.
    func read(_ dc: XMLTree, header: OAIRecord) throws -> OAIRecord {
        let identifiers = Self.terms(dc, "identifier").map { OAITextChoice.collapsed($0.text) }
        let number = identifiers.first { !$0.isEmpty && !Self.isURL($0) } ?? header.identifier
        let title = text.pick(Self.terms(dc, "title").map { ($0.attribute("lang") ?? "", $0.text) })
        let creator = OAITextChoice.first(Self.terms(dc, "creator").map(\.text)).map(OAICreatorName.withoutRole)
        let linked = ["identifier", "relation", "description"].flatMap { Self.terms(dc, $0) }
            .map { OAITextChoice.collapsed($0.text) }
        let image = linked.first(where: Self.isImageURL) ?? Self.addedImage(dc)
        var record = header
        (record.objectNumber, record.title, record.creator, record.imageURL) =
            (number, title ?? "", creator ?? "", image)
        record.date = OAITextChoice.first(Self.terms(dc, "date").map(\.text))
        record.years = record.date.flatMap { YearText.years(in: $0) }
        let rights = Self.terms(dc, "rights").map { OAITextChoice.collapsed($0.text) }.filter { !$0.isEmpty }
        record.rights = rights.first(where: Self.isURL) ?? rights.first
        record.landingPage = identifiers.first { identifier in
            Self.isURL(identifier) && !identifier.contains(" ") && identifier != image && !Self.isImageURL(identifier)
        }
        return record
    }

    /// `dc:<name>` elements, then `dcterms:<name>` ones.
    private static func terms(_ dc: XMLTree, _ name: String) -> [XMLTree] {
        dc.children(OAINamespace.dc, name) + dc.children(OAINamespace.dcterms, name)
    }

    /// The first http(s) URL of an element named for an image, as text or as `rdf:resource`.
    private static func addedImage(_ dc: XMLTree) -> String? {
        dc.children.lazy.filter { imageElements.contains($0.name.lowercased()) }
            .compactMap { element in
                [element.attribute("resource") ?? "", element.text].map(OAITextChoice.collapsed)
                    .first { isURL($0) && !$0.contains(" ") }
            }
            .first
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
