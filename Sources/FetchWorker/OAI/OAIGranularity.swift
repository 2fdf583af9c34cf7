import Foundation

/// How finely a repository stamps and selects records (`Identify`'s `granularity`).
enum OAIGranularity: String, Sendable {
    case seconds = "YYYY-MM-DDThh:mm:ssZ"
    case days = "YYYY-MM-DD"

    /// The harvest's window as the repository takes it. In days, `from` starts a day early:
    /// days overlap by one, so a record stamped on the day the last harvest began (or, by
    /// another clock, the day before) is listed again rather than missed; `until` is its day,
    /// which the repository takes whole.
    func window(_ query: [String: String]) -> [String: String] {
        guard self == .days else { return query }
        var window = query
        if let from = query["from"], let day = Self.day(from) {
            window["from"] = Self.text(Calendar.utc.date(byAdding: .day, value: -1, to: day) ?? day)
        }
        if let until = query["until"], let day = Self.day(until) { window["until"] = Self.text(day) }
        return window
    }

    /// The day of a datestamp in either granularity.
    private static func day(_ text: String) -> Date? {
        guard text.utf8.count >= 10 else { return nil }
        return try? Date(String(text.prefix(10)) + "T00:00:00Z", strategy: .iso8601)
    }

    private static func text(_ day: Date) -> String {
        String(day.formatted(.iso8601).prefix(10))
    }
}

extension Calendar {
    fileprivate static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
