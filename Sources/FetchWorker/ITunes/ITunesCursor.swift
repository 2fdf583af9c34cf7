/// Where an iTunes search crawl stands: the offset of the next page, checked when read.
struct ITunesCursor: Equatable {
    /// Results before this page.
    var offset: Int
    var lastPage: Int
    /// The first work of the page before, to notice a service that answers the same page again.
    var previousFirst: String?

    init(offset: Int, lastPage: Int, previousFirst: String? = nil) {
        self.offset = offset
        self.lastPage = lastPage
        self.previousFirst = previousFirst
    }

    /// Reads a cursor; an offset that is not a number in `0...maxOffset` is poison.
    init(_ text: String?, maxOffset: Int) throws {
        let fields = try CursorFields(text)
        offset = 0
        if let token = fields.token {
            guard let number = Int(token), (0...maxOffset).contains(number) else {
                throw SourceFormatError("cursor: offset '\(token.prefix(40))' is not a number in 0…\(maxOffset)")
            }
            offset = number
        }
        lastPage = fields.lastPage
        previousFirst = fields.previous
    }

    var text: String {
        CursorFields(token: offset == 0 ? nil : String(offset), lastPage: lastPage, previous: previousFirst).text
    }
}
