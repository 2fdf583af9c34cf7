/// Replaces secrets (API keys) in text meant for logs, metrics, messages and dead letters.
public struct SecretRedaction: Sendable {
    public static let placeholder = "REDACTED"
    private let secrets: [String]

    public init(secrets: [String?]) {
        // Short strings would redact ordinary text; an API key is never that short.
        self.secrets = secrets.compactMap { $0 }.filter { $0.count >= 4 }
    }

    public func apply(_ text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.placeholder) }
    }
}
