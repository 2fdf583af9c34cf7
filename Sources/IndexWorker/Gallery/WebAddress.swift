/// An `http` or `https` URL a record gave, as far as the gallery reads one: its host (lowercased,
/// without `www.`) and its path's parts. Text with whitespace, a quote or an angle bracket, or
/// without a host, is no web address: the gallery never writes it as a link.
struct WebAddress: Equatable {
    /// The host, lowercased, without a leading `www.`.
    var host: String
    /// The path's non-empty parts, lowercased, without the query or fragment.
    var path: [Substring]

    init?(_ text: String) {
        let lowered = text.lowercased()
        let rest: Substring
        if lowered.hasPrefix("https://") {
            rest = lowered.dropFirst(8)
        } else if lowered.hasPrefix("http://") {
            rest = lowered.dropFirst(7)
        } else {
            return nil
        }
        guard !rest.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" }) else { return nil }
        var parts = rest.prefix { $0 != "?" && $0 != "#" }.split(separator: "/", omittingEmptySubsequences: true)
        guard let first = parts.first else { return nil }
        parts.removeFirst()
        host = String(first.hasPrefix("www.") ? first.dropFirst(4) : first)
        path = parts
    }

    /// Whether `text` may be written as a link.
    static func isLink(_ text: String) -> Bool { WebAddress(text) != nil }
}
