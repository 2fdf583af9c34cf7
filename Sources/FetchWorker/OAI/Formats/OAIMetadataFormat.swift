import Foundation

/// The metadata formats artpipe reads, known by the namespace a repository declares for them
/// in `ListMetadataFormats` (their prefixes are the repository's choice: `edm`, `rdf`,
/// `lido`, `oai_dc`…).
enum OAIMetadataFormat: CaseIterable, Sendable {
    case edm
    case lido
    case dublinCore

    var namespace: String {
        switch self {
        case .edm: OAINamespace.edm
        case .lido: OAINamespace.lido
        case .dublinCore: OAINamespace.oaiDC
        }
    }

    /// One format a repository offers (`ListMetadataFormats`).
    struct Offered: Sendable, Equatable {
        var prefix: String
        var namespace: String
    }

    /// The prefix a harvest asks for when the user names none: EDM, then LIDO, then `oai_dc`
    /// (the richest first; `oai_dc` every repository must offer). Nil when none is offered.
    static func choose(from offered: [Offered]) -> String? {
        for format in allCases {
            if let match = offered.first(where: { format.matches($0.namespace) }) { return match.prefix }
        }
        return nil
    }

    /// Namespaces are compared without a trailing slash: repositories write EDM's both ways.
    private func matches(_ declared: String) -> Bool {
        let trimmed = { (text: String) in text.hasSuffix("/") ? String(text.dropLast()) : text }
        return trimmed(declared.trimmingCharacters(in: .whitespaces)) == trimmed(namespace)
    }
}
