import Foundation

/// A `Retry-After` header's wait: delta-seconds or an HTTP date, never more than
/// ``longest``. A number too large for any integer, or a date in the year 9999, reads as the
/// longest wait rather than trapping on conversion; what decides how long is too long is the
/// caller's `maxRetryAfter`.
package enum RetryAfter {
    /// A year: longer than anything artpipe waits for.
    package static let longest: Duration = .seconds(365 * 86_400)

    /// The wait `value` asks for, from `now`; nil when it is neither form.
    package static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // More digits than a year's seconds can have: as long as it gets.
            guard trimmed.utf8.count <= 10, let seconds = Int64(trimmed) else { return longest }
            return min(.seconds(seconds), longest)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        guard interval.isFinite, interval > 0 else { return .zero }
        return interval >= longest.seconds ? longest : .milliseconds(Int64(interval * 1_000))
    }
}
