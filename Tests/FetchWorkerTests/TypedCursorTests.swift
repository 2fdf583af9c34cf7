import Testing

@testable import FetchWorker

/// Each source's cursor reads and writes the same wire form (`last`, `pageToken`, `previous`),
/// and checks its own numbers where it reads them.
@Suite("Typed cursors: one per source, one wire form")
struct TypedCursorTests {
    @Test("each cursor writes the fields requests already carry, and reads back what it wrote")
    func wireForm() throws {
        let itunes = ITunesCursor(offset: 100, lastPage: 5, previousFirst: "id 7")
        #expect(itunes.text == "last=5&pageToken=100&previous=id%207")
        #expect(try ITunesCursor(itunes.text, maxOffset: 200) == itunes)
        #expect(try ITunesCursor(nil, maxOffset: 200) == ITunesCursor(offset: 0, lastPage: .max))

        let flickr = FlickrRangeCursor(firstPage: 41)
        #expect(flickr.text == "pageToken=41")
        #expect(try FlickrRangeCursor(flickr.text, page: 41) == flickr)
        #expect(try FlickrRangeCursor(nil, page: 3).firstPage == 1)

        let search = SearchPageCursor(pageToken: "a b+c", lastPage: 9, previous: "z")
        #expect(try SearchPageCursor(search.text) == search)
    }

    @Test("a number out of its source's range is refused where the cursor is read")
    func checkedWhereRead() {
        #expect(throws: SourceFormatError.self) { try ITunesCursor("pageToken=201", maxOffset: 200) }
        #expect(throws: SourceFormatError.self) { try FlickrRangeCursor("pageToken=42", page: 41) }
        #expect(throws: SourceFormatError.self) { try SearchPageCursor("last=0") }
    }
}
