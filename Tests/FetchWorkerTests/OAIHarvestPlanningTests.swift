import ArtpipeTestKit
import Testing

@testable import FetchWorker

/// What a harvest is planned and resumed by: list sizes, the cursor's checks, datestamps.
@Suite("OAI-PMH harvest planning")
struct OAIHarvestPlanningTests {
    @Test("a real ListIdentifiers answer: the list size, and the padded token trimmed")
    func recordedListSize() throws {
        let bytes = try RecordedFixture.bytes(
            "oai/europeana-metis_oaiListIdentifiers_padded-token", fileExtension: "xml")
        let size = try OAIResponseParser.listSize(bytes)
        #expect(size.count == 2_932 && size.listed == 1)
        #expect(size.resumptionToken == "edm:smvk-mm:*:*:50:2932")
        #expect(size.responseDate == "2017-11-15T12:30:02Z")
    }

    @Test("a cursor round-trips, its token with + / = and white space intact")
    func cursorRoundTrip() throws {
        var cursor = OAIHarvestCursor(
            token: "+/a b=", lastPage: 40, cuts: ["2026-01-27T00:00:00Z", "2026-01-28T12:00:00Z"],
            started: "2026-11-24T00:00:00Z", total: 844_000)
        cursor.slice = 2
        cursor.listed = 12_345
        cursor.refusals = 3
        #expect(try OAIHarvestCursor(cursor.text) == cursor)
        #expect(try OAIHarvestCursor(nil) == OAIHarvestCursor())
    }

    @Test(
        "a cursor whose numbers or datestamps are out of range is poison, not a trap",
        arguments: [
            "last=0", "last=99999999999999999999999", "slice=1", "cuts=2026-01-02T00:00:00Z&slice=2",
            "cuts=2026-01-02T00:00:00Z,2026-01-01T00:00:00Z", "cuts=yesterday", "listed=-1", "total=1e9",
            "refusals=100000", "started=soon",
        ])
    func poisonCursors(_ text: String) {
        #expect(throws: SourceFormatError.self) { try OAIHarvestCursor(text) }
    }

    @Test("a slice's query: the window from the slice's cut to the second before the next")
    func sliceQueries() throws {
        var cursor = OAIHarvestCursor(cuts: ["2026-01-27T00:00:00Z", "2026-01-28T00:00:00Z"])
        let query = ["set": "26121", "from": "2026-01-01T00:00:00Z"]
        #expect(
            cursor.sliceQuery(query) == [
                "set": "26121", "from": "2026-01-01T00:00:00Z", "until": "2026-01-26T23:59:59Z",
            ])
        cursor.slice = 1
        #expect(
            cursor.sliceQuery(query) == [
                "set": "26121", "from": "2026-01-27T00:00:00Z", "until": "2026-01-27T23:59:59Z",
            ])
        cursor.slice = 2
        #expect(cursor.sliceQuery(query) == ["set": "26121", "from": "2026-01-28T00:00:00Z"])
    }
}
