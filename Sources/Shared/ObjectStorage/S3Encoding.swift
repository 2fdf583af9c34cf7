import ArtpipeSupport

/// Percent-encoding as SigV4 and S3 want it: RFC 3986's, ``PercentEncoding`` (a space is `%20`,
/// a `+` is `%2B`).
package enum S3Encoding {
    /// One name or value.
    static func component(_ text: String) -> String {
        PercentEncoding.component(text)
    }

    /// A path: each segment encoded, the slashes kept.
    static func path(_ text: String) -> String {
        PercentEncoding.path(text)
    }

    /// The canonical query: encoded names and values, sorted by name then value, joined with `&`.
    static func canonicalQuery(_ items: [(String, String)]) -> String {
        items.map { (component($0.0), component($0.1)) }
            .sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }
}
