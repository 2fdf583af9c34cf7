import Foundation

/// Which OAI-PMH repository a source harvests, and in which format: the museum's, fixed; or
/// any, named by each crawl's query.
package struct OAIRepository: Sendable {
    /// The source's name in page requests (`rijksmuseum-oai`, `oai-pmh`).
    package var sourceName: String
    /// The base URL; nil when each crawl names it (`--query endpoint=…`).
    package var endpoint: URL?
    /// The metadata format; nil when a crawl may name it (`--query metadataPrefix=…`) or
    /// leave the choice to ``OAIMetadataFormat/choose(from:)``.
    package var metadataPrefix: String?
    /// How finely it selects by datestamp; nil: asked of the repository (`Identify`) when a harvest is planned.
    var granularity: OAIGranularity?

    /// The museum's endpoint (`https://data.rijksmuseum.nl/oai`, or a stand-in's), EDM only.
    package static func rijksmuseum(endpoint: URL) -> OAIRepository {
        OAIRepository(
            sourceName: rijksmuseumSourceName, endpoint: endpoint, metadataPrefix: "edm", granularity: .seconds)
    }

    package static let rijksmuseumSourceName = "rijksmuseum-oai"

    /// Any repository: `endpoint` is in each crawl's query.
    package static let any = OAIRepository(sourceName: "oai-pmh", endpoint: nil, metadataPrefix: nil)

    /// The query parameters a harvest takes; `from` and `until` are UTC, second granularity.
    var queryParameters: Set<String> {
        var names: Set<String> = ["set", "from", "until"]
        if endpoint == nil { names.insert("endpoint") }
        if metadataPrefix == nil { names.insert("metadataPrefix") }
        return names
    }

    /// The base URL a harvest with `query` asks; a crawl's `endpoint` must be an http(s) URL.
    func endpoint(for query: [String: String]) throws -> URL {
        if let endpoint { return endpoint }
        guard let text = query["endpoint"] else {
            throw SourceFormatError("\(sourceName) needs the repository's base URL: --query endpoint=https://…")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false, url.query == nil
        else {
            throw SourceFormatError(
                "endpoint=\(text) is not an OAI-PMH base URL (http or https, a host, no query)")
        }
        return url
    }
}
