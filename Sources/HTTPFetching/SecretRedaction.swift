import Foundation

/// Replaces secrets (API keys) in text meant for logs, metrics, messages and dead letters,
/// as they are and percent-encoded in a URL: wholly or in part, in upper or lower-case hex.
public struct SecretRedaction: Sendable {
    public static let placeholder = "REDACTED"
    /// One pattern per secret: each byte that is not a letter or digit may also appear as `%XX`.
    private let patterns: [String]

    public init(secrets: [String?]) {
        // Short strings would redact ordinary text; an API key is never that short.
        patterns = secrets.compactMap { $0 }.filter { $0.count >= 4 }.map(Self.pattern)
    }

    public func apply(_ text: String) -> String {
        patterns.reduce(text) {
            $0.replacingOccurrences(of: $1, with: Self.placeholder, options: .regularExpression)
        }
    }

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
