/// Where a page of a Flickr crawl's upload-date range stands: the crawl page the range starts
/// at, so the page within the range is counted from it.
struct FlickrRangeCursor: Equatable {
    var firstPage: Int

    init(firstPage: Int) {
        self.firstPage = firstPage
    }

    /// Reads a cursor of the crawl's page `page`; a range start that is not a page in `1...page` is poison.
    init(_ text: String?, page: Int) throws {
        let fields = try CursorFields(text)
        guard let token = fields.token else {
            firstPage = 1
            return
        }
        guard let number = Int(token), (1...max(page, 1)).contains(number) else {
            throw SourceFormatError("cursor: range start '\(token.prefix(40))' is not a number in 1…\(page)")
        }
        firstPage = number
    }

    var text: String { CursorFields(token: String(firstPage), lastPage: .max).text }
}
