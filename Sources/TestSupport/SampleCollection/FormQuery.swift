/// A query string read as servers read forms (`application/x-www-form-urlencoded`): `+` is a
/// space, then percent escapes are decoded. The stand-ins read queries this way, as the real
/// services do, so a client that leaves `+` unencoded is caught.
package enum FormQuery {
    /// The name–value pairs in order; a later repeat of a name comes after the earlier one.
    static func decode(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (component(parts[0]), parts.count > 1 ? component(parts[1]) : "")
        }
    }

    /// The last value of each name.
    package static func dictionary(_ query: String?) -> [String: String] {
        Dictionary(decode(query).map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    private static func component(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
