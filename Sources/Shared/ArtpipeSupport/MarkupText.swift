/// Text made safe for HTML and XML, in element content and in quoted attributes.
package enum MarkupText {
    /// By Unicode scalar, not by Character: a quote followed by a combining mark is one
    /// Character that equals no quote, yet a parser still reads the quote and ends the attribute.
    package static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
