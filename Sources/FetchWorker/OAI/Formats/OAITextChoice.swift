/// Chooses one text among several a record offers (titles, names in several languages), the
/// same way for every format: the language asked for (`en` also takes `en-GB`), else text
/// without a language, else the smallest language code's, so a record always gives the same
/// text. White space runs (a pretty-printed record's line breaks) become one space.
struct OAITextChoice: Sendable {
    /// The language asked for (`--language`).
    var language: String

    /// The chosen text of `texts` (language tag, text); nil when all are empty.
    func pick(_ texts: [(language: String, text: String)]) -> String? {
        let offered = texts.map { (language: $0.language.lowercased(), text: Self.collapsed($0.text)) }
            .filter { !$0.text.isEmpty }
        let wanted = language.lowercased()
        if let exact = offered.first(where: { $0.language == wanted }) { return exact.text }
        if let regional = offered.first(where: { $0.language.hasPrefix(wanted + "-") }) { return regional.text }
        if let untagged = offered.first(where: { $0.language.isEmpty }) { return untagged.text }
        return offered.min { ($0.language, $0.text) < ($1.language, $1.text) }?.text
    }

    /// The first non-empty text, white space collapsed.
    static func first(_ texts: [String]) -> String? {
        texts.lazy.map(collapsed).first { !$0.isEmpty }
    }

    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
