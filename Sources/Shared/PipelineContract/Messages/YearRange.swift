/// The years a record's date spans, as far as its text says: a single year is a range of one.
package struct YearRange: Codable, Sendable, Hashable {
    package var earliest: Int
    package var latest: Int

    package init(earliest: Int, latest: Int) {
        (self.earliest, self.latest) = (min(earliest, latest), max(earliest, latest))
    }
}
