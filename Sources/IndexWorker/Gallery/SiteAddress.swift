/// Where the published gallery is served from, as visitors reach it: an absolute `http` or
/// `https` URL with no query or fragment, kept with a final `/` so a page's path follows it.
package struct SiteAddress: Sendable, Equatable {
    /// The address, ending in `/`.
    package let base: String

    /// The address `text` names; nil for anything else: another scheme; a host that is not
    /// letters, digits, dots and hyphens (no user or password: they would be published); a port
    /// that is not digits; a query or a fragment; a path with characters a URL must encode, or a
    /// `%` without two hex digits; longer than 1,024 bytes (the protocol's URLs end at 2,048).
    package init?(_ text: String) {
        let lowered = text.lowercased()
        let scheme = lowered.hasPrefix("https://") ? 8 : lowered.hasPrefix("http://") ? 7 : 0
        guard scheme > 0, text.utf8.count <= 1_024 else { return nil }
        let rest = Array(text.utf8.dropFirst(scheme))
        let authority = rest.prefix { $0 != UInt8(ascii: "/") }
        let path = rest.dropFirst(authority.count)
        let parts = authority.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard let host = parts.first, !host.isEmpty, parts.count <= 2,
            host.allSatisfy({ Self.isHostByte($0) }), host.first != UInt8(ascii: "-"), host.first != UInt8(ascii: "."),
            parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy { (48...57).contains($0) })
        else { return nil }
        guard path.allSatisfy({ Self.isPathByte($0) }), Self.percentsAreEscapes(Array(path)) else { return nil }
        base = text.hasSuffix("/") ? text : text + "/"
    }

    /// The absolute URL of the published file at `path` (relative, percent-encoded already).
    func url(of path: String) -> String { base + path }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (97...122).contains(byte) || (65...90).contains(byte) || (48...57).contains(byte) || byte == 45 || byte == 46
    }

    /// RFC 3986's unreserved and sub-delimiter characters, `:`, `@`, `/` and `%`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        isHostByte(byte) || "_~!$&'()*+,;=:@/%".utf8.contains(byte)
    }

    private static func percentsAreEscapes(_ path: [UInt8]) -> Bool {
        let hex = { (byte: UInt8) in (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) }
        for (index, byte) in path.enumerated() where byte == UInt8(ascii: "%") {
            guard index + 2 < path.count, hex(path[index + 1]), hex(path[index + 2]) else { return false }
        }
        return true
    }
}
