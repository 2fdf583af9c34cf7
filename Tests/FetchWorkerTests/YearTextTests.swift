import PipelineContract
import Testing

@testable import FetchWorker

/// The years a date's text gives, in the forms the recorded sources write them, and none guessed.
@Suite("Years from a date's text")
struct YearTextTests {
    @Test(
        "a year, approximate or plain, is a range of one year",
        arguments: [
            ("1642", 1642), ("c. 1665", 1665), ("ca. 1665", 1665), ("c.1665", 1665), ("circa 1665", 1665),
            ("[ca. 1942]", 1942), ("1942~", 1942), ("  1642\n", 1642), ("um 1510", 1510), ("950", 950),
        ])
    func singleYear(text: String, year: Int) {
        #expect(YearText.years(in: text) == YearRange(earliest: year, latest: year))
    }

    @Test(
        "an ISO date or time gives its year alone, never a range",
        arguments: [
            "1642-05-01", "1642-05", "1642-05-01T00:00:00Z", "1642-05-01T23:59:59Z", "1642-05-01 21:06:26",
        ])
    func isoDate(text: String) {
        #expect(YearText.years(in: text) == YearRange(earliest: 1642, latest: 1642))
    }

    @Test(
        "a range, by hyphen, dash, slash or spaced, its ends qualified or not",
        arguments: [
            ("1665-1670", 1665, 1670), ("1665–1670", 1665, 1670), ("1665 - 1670", 1665, 1670),
            ("1665 – 1670", 1665, 1670), ("c. 1669 - c. 1670", 1669, 1670), ("ca. 1582 - ca. 1583", 1582, 1583),
            ("in or after 1834 - in or before 1861", 1834, 1861), ("c. 1887 - in or before 1892", 1887, 1892),
            ("c. 1685 - before 1700", 1685, 1700), ("1942/1942", 1942, 1942), ("1665-70", 1665, 1670),
            ("1603/04", 1603, 1604), ("1650-01-01/1660-12-31", 1650, 1660), ("1650-01-01 - 1660-12-31", 1650, 1660),
        ])
    func range(text: String, earliest: Int, latest: Int) {
        #expect(YearText.years(in: text) == YearRange(earliest: earliest, latest: latest))
    }

    @Test(
        "a century is its hundred years",
        arguments: ["17th century", "17th-century", "17e eeuw", "17de eeuw", "17. Jahrhundert", "17th c."])
    func century(text: String) {
        #expect(YearText.years(in: text) == YearRange(earliest: 1601, latest: 1700))
    }

    @Test(
        "anything else gives no years",
        arguments: [
            "", "   ", "September 2016", "before 1700", "1953年", "-500", "5-6", "1665-1670-1675", "1642-13-01",
            "1642-05-01 - ", "circa", "42nd century", "date", "1601-05-01Tx", "2008-04-26 noon",
        ])
    func noYears(text: String) {
        #expect(YearText.years(in: text) == nil)
    }
}
