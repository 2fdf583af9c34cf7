import Foundation

/// A work's rights as a visitor reads them: a known statement's URI (Creative Commons' licences
/// and public domain tools, RightsStatements.org's statements) named in words with its link; any
/// other web address (``WebAddress``) as a link; the record's own words as they are.
struct RightsStatement: Equatable {
    /// What the page says.
    var words: String
    /// Where the statement is, when the record gave a web address (``WebAddress``): written as a link.
    var link: String?

    /// The statement a record's rights field makes.
    init(_ rights: String) {
        let trimmed = rights.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = WebAddress(trimmed) else {
            (words, link) = (trimmed, nil)
            return
        }
        link = trimmed
        words = Self.name(host: url.host, path: url.path) ?? "Rights statement"
    }

    /// The words of a known statement at `host` and `path` (lowercased).
    private static func name(host: String, path: [Substring]) -> String? {
        switch (host, path.first) {
        case ("creativecommons.org", "publicdomain"):
            guard path.count >= 2 else { return nil }
            let version = path.count >= 3 ? " " + path[2] : ""
            switch path[1] {
            case "zero": return "CC0\(version) (public domain dedication)"
            case "mark": return "Public Domain Mark\(version)"
            default: return nil
            }
        case ("creativecommons.org", "licenses"):
            guard path.count >= 2 else { return nil }
            let version = path.count >= 3 ? " " + path[2] : ""
            return "CC \(path[1].uppercased())\(version)"
        case ("rightsstatements.org", "vocab"):
            guard path.count >= 2 else { return nil }
            return rightsStatements[String(path[1])]
        case ("flickr.com", "commons"):
            return "No known copyright restrictions"
        default:
            return nil
        }
    }

    /// RightsStatements.org's statements by their identifier, lowercased.
    private static let rightsStatements: [String: String] = [
        "inc": "In Copyright",
        "inc-ow-eu": "In Copyright – EU Orphan Work",
        "inc-edu": "In Copyright – Educational Use Permitted",
        "inc-nc": "In Copyright – Non-Commercial Use Permitted",
        "inc-ruu": "In Copyright – Rights-holder(s) Unlocatable or Unidentifiable",
        "noc-cr": "No Copyright – Contractual Restrictions",
        "noc-nc": "No Copyright – Non-Commercial Use Only",
        "noc-oklr": "No Copyright – Other Known Legal Restrictions",
        "noc-us": "No Copyright – United States",
        "cne": "Copyright Not Evaluated",
        "und": "Copyright Undetermined",
        "nkc": "No Known Copyright",
    ]
}
