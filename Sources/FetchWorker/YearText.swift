import Foundation
import PipelineContract

/// Reads the years a date's text gives, in the forms collections write them, and nothing else:
///
/// - a year, plain or approximate: "1642", "c. 1665", "ca. 1665", "circa 1665", "um 1665", "1942~",
///   "[ca. 1942]" → 1642…1642;
/// - an ISO 8601 date or time: "1642-05-01", "1642-05", "1642-05-01T00:00:00Z",
///   "2008-04-26 21:06:26" → its year alone;
/// - a range: "1665-1670", "1665–1670", "1665 - 1670", "1942/1942", "c. 1626 - c. 1627",
///   "in or after 1834 - in or before 1861", "c. 1685 - before 1700" → 1665…1670, each end a year
///   or an ISO date, with a qualifier or none; "1665-70" and "1603/04" (the later year's last two
///   digits) → 1665…1670, 1603…1604;
/// - a century: "17th century", "17th-century", "17e eeuw", "17. Jahrhundert" → 1601…1700.
///
/// Years are written with three or four digits. Anything else ("September 2016", "before 1700",
/// "1953年", a year before the common era) gives nil: no years are guessed.
enum YearText {
    /// The years `text` gives; nil when it gives none in a form above.
    static func years(in text: String) -> YearRange? {
        var words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if words.hasPrefix("["), words.hasSuffix("]") {
            words = String(words.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        guard !words.isEmpty else { return nil }
        if let single = bound(words, qualifiers: approximations) { return single }
        if let hundred = century(words) { return hundred }
        return range(words)
    }

    /// Words before a year that say it is approximate.
    static let approximations = ["circa ", "about ", "c. ", "ca. ", "c.", "ca.", "ca ", "c ", "um ", "omstreeks "]
    /// Words before either end of a range: approximations and open bounds.
    static let rangeQualifiers =
        ["in or after ", "in or before ", "before ", "after ", "voor ", "vóór ", "na "] + approximations

    /// Ordinal endings of a century's number ("17th", "17e", "17de", "17.").
    static let ordinals: Set<String> = ["", "st", "nd", "rd", "th", "e", "de", "ste", "."]
    /// The word for a century.
    static let centuryWords: Set<String> = ["century", "eeuw", "jahrhundert", "jh.", "c."]

    /// "1665-1670", "1942/1942", "c. 1626 - c. 1627": two ends around one separator; the
    /// separator spaced when the ends are dates with hyphens of their own.
    private static func range(_ text: String) -> YearRange? {
        for separator in ["/", " - ", " – ", " — ", "–", "—", "-"] {
            let parts = text.components(separatedBy: separator)
            guard parts.count == 2 else { continue }
            let left = parts[0].trimmingCharacters(in: .whitespaces)
            let right = parts[1].trimmingCharacters(in: .whitespaces)
            guard let start = bound(left, qualifiers: rangeQualifiers) else { return nil }
            if let end = bound(right, qualifiers: rangeQualifiers) {
                return YearRange(earliest: start.earliest, latest: end.latest)
            }
            // The later year written by its last two digits: "1665-70", "1603/04".
            guard start.earliest == start.latest, let last = digits(right), last.count == 2,
                let tail = Int(last)
            else { return nil }
            let later = start.earliest / 100 * 100 + tail
            return later > start.earliest ? YearRange(earliest: start.earliest, latest: later) : nil
        }
        return nil
    }

    /// One end: a year or an ISO date, after one of `qualifiers` or none, before a `?` or `~` or none.
    private static func bound(_ text: String, qualifiers: [String]) -> YearRange? {
        var rest = Substring(text)
        while let last = rest.last, last == "?" || last == "~" { rest = rest.dropLast() }
        let lowered = rest.lowercased()
        if let qualifier = qualifiers.first(where: { lowered.hasPrefix($0) }) {
            rest = rest.dropFirst(qualifier.count)
        }
        let year = String(rest).trimmingCharacters(in: .whitespaces)
        if let number = digits(year), (3...4).contains(number.count), let value = Int(number) {
            return YearRange(earliest: value, latest: value)
        }
        return isoYear(year).map { YearRange(earliest: $0, latest: $0) }
    }

    /// The year of `YYYY-MM`, `YYYY-MM-DD`, and of `YYYY-MM-DD` followed by `T` or a space and a time.
    private static func isoYear(_ text: String) -> Int? {
        let characters = Array(text)
        guard characters.count >= 7, let year = digits(String(characters[0..<4])), characters[4] == "-",
            let month = digits(String(characters[5..<7])).flatMap({ Int($0) }), (1...12).contains(month)
        else { return nil }
        if characters.count == 7 { return Int(year) }
        guard characters.count >= 10, characters[7] == "-",
            let day = digits(String(characters[8..<10])).flatMap({ Int($0) }), (1...31).contains(day)
        else { return nil }
        if characters.count == 10 { return Int(year) }
        // A time after the date: `T` or a space, then the hour's digits.
        guard characters.count > 11, characters[10] == "T" || characters[10] == " ", characters[11].isASCII,
            characters[11].isWholeNumber
        else { return nil }
        return Int(year)
    }

    /// "17th century", "17th-century", "17e eeuw", "17. Jahrhundert": the century's hundred years.
    private static func century(_ text: String) -> YearRange? {
        let parts = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" })
        guard parts.count == 2, centuryWords.contains(String(parts[1])) else { return nil }
        let number = parts[0].prefix { $0.isASCII && $0.isWholeNumber }
        guard !number.isEmpty, ordinals.contains(String(parts[0].dropFirst(number.count))),
            let value = Int(number), (1...21).contains(value)
        else { return nil }
        return YearRange(earliest: (value - 1) * 100 + 1, latest: value * 100)
    }

    /// `text` when it is ASCII digits only, at most four.
    private static func digits(_ text: String) -> String? {
        guard !text.isEmpty, text.count <= 4, text.allSatisfy({ $0.isASCII && $0.isWholeNumber }) else { return nil }
        return text
    }
}
