import Foundation

/// OAI-PMH datestamps at second granularity, UTC: `YYYY-MM-DDThh:mm:ssZ`. Strings of this form
/// sort as the times they name.
enum OAIDatestamp {
    static func date(_ text: String) -> Date? {
        guard text.utf8.count == 20 else { return nil }
        return try? Date(text, strategy: .iso8601)
    }

    /// `text` when it is a second-granularity datestamp, else nil.
    static func checked(_ text: String?) -> String? {
        text.flatMap { date($0) == nil ? nil : $0 }
    }

    static func text(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// The datestamp one second earlier: where the slice before a cut ends (`until` is inclusive).
    static func secondBefore(_ text: String) -> String {
        date(text).map { Self.text($0.addingTimeInterval(-1)) } ?? text
    }
}
