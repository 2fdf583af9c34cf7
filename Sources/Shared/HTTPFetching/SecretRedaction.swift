import Foundation

/// Replaces secrets (API keys) in text meant for logs, metrics, messages and dead letters,
/// as they are and percent-encoded in a URL: wholly or in part, in upper or lower-case hex.
package struct SecretRedaction: Sendable {
    static let placeholder = "REDACTED"
    /// One expression per secret, compiled once: `apply` runs on every request's URL.
    private let expressions: [Expression]

    /// Unchecked: an `NSRegularExpression` is immutable once made and safe to use from any thread.
    private struct Expression: @unchecked Sendable {
        let regex: NSRegularExpression
    }

    package init(secrets: [String?]) {
        // Short strings would redact ordinary text; an API key is never that short.
        expressions = secrets.compactMap { $0 }.filter { $0.count >= 4 }.compactMap {
            (try? NSRegularExpression(pattern: Self.pattern($0))).map(Expression.init)
        }
    }

    package func apply(_ text: String) -> String {
        expressions.reduce(text) { text, expression in
            expression.regex.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: Self.placeholder)
        }
    }

    /// Each byte that is not an ASCII letter or digit may also appear as `%XX`, in either case.
    private static func pattern(_ secret: String) -> String {
        var pattern = ""
        for character in secret {
            if character.isASCII && (character.isLetter || character.isNumber) {
                pattern.append(character)
                continue
            }
            let literal = NSRegularExpression.escapedPattern(for: String(character))
            let encoded = String(character).utf8.map { String(format: "%%%02X", $0) }.joined()
            pattern += "(?:\(literal)|(?i:\(encoded)))"
        }
        return pattern
    }
}
