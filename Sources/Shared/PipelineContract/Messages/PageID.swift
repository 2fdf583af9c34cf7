import Crypto

/// Page ids: `<source>:<query-hash>:<page>`.
///
/// The query hash covers the query's parameters sorted by name, so the same query always
/// gets the same ids, whoever crawls it and however the parameters were ordered.
package enum PageID {
    package static func make(source: String, query: [String: String], page: Int) -> String {
        "\(source):\(queryHash(query)):\(page)"
    }

    /// The first 16 hex digits of SHA-256 over `name=value` pairs sorted by name, joined by `&`.
    package static func queryHash(_ query: [String: String]) -> String {
        let canonical = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        return String(SHA256.hexDigest(of: Array(canonical.utf8)).prefix(16))
    }
}
