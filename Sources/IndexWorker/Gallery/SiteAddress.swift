/// Where the published gallery is served from, as visitors reach it: an absolute `http` or
/// `https` URL with no query or fragment, kept with a final `/` so a page's path follows it.
package struct SiteAddress: Sendable, Equatable {
    /// The address, ending in `/`.
    package let base: String

    /// The address `text` names; nil for anything else (no scheme, another scheme, no host, a
    /// query, a fragment, white space or characters a URL leaves encoded).
    package init?(_ text: String) {
        let lowered = text.lowercased()
        let scheme = lowered.hasPrefix("https://") ? 8 : lowered.hasPrefix("http://") ? 7 : 0
        guard scheme > 0, text.utf8.count > scheme,
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && !"?#\"<>\\^`{|}".utf8.contains($0) }),
            let host = text.dropFirst(scheme).split(separator: "/", omittingEmptySubsequences: false).first,
            !host.isEmpty
        else { return nil }
        base = text.hasSuffix("/") ? text : text + "/"
    }

    /// The absolute URL of the published file at `path` (relative, percent-encoded already).
    func url(of path: String) -> String { base + path }
}
