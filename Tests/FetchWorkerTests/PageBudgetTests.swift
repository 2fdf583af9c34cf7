import Foundation
import KafkaClient
import PipelineContract
import Testing

@testable import FetchWorker

/// A page's works are one Kafka message: what cannot fit one is a record's dead letter, never
/// the page's failure.
@Suite("What of a page fits one message")
struct PageBudgetTests {
    static func work(_ number: Int, title: String = "A title") -> Artwork {
        Artwork(
            objectNumber: "SK-\(number)", title: title, artist: "A maker",
            imageURL: "https://example.org/\(number).jpg",
            width: 10, height: 10, position: number, recordId: "oai:example:\(number)",
            datestamp: "2026-01-01T00:00:00Z")
    }

    @Test("a page within the budget is left as it came")
    func fittingPageIsUnchanged() {
        let page = SourcePage(
            total: 3, artworks: (0..<3).map { Self.work($0) },
            deletions: [RecordDeletion(recordId: "oai:example:9", datestamp: "2026-01-01T00:00:00Z")],
            unreadable: [UnreadableRecord(recordId: "oai:example:8", reason: "no title")])
        let fitted = PageBudget().fit(page)
        #expect(fitted.artworks == page.artworks)
        #expect(fitted.deletions == page.deletions)
        #expect(fitted.unreadable == page.unreadable)
    }

    @Test("a work with a field past 16 KiB is one unreadable record naming the field; the others stay")
    func overlongFieldIsUnreadable() throws {
        let long = String(repeating: "x", count: PageBudget.maxFieldBytes + 1)
        let page = SourcePage(total: 3, artworks: [Self.work(0), Self.work(1, title: long), Self.work(2)])
        let fitted = PageBudget().fit(page)
        #expect(fitted.artworks.map(\.position) == [0, 2])
        let refused = try #require(fitted.unreadable.first)
        #expect(fitted.unreadable.count == 1)
        #expect(refused.recordId == "oai:example:1")
        #expect(refused.reason.hasPrefix("its title is \(PageBudget.maxFieldBytes + 1) bytes"), "\(refused.reason)")
        // The dead letter carries what was read of it, so nothing is lost but its size allows.
        #expect(try JSONDecoder().decode(Artwork.self, from: Data(try #require(refused.bytes))) == page.artworks[1])
    }

    @Test("a rights statement or a landing page past 16 KiB is left out; the work is kept without it")
    func overlongDescriptiveField() throws {
        let long = String(repeating: "r", count: PageBudget.maxFieldBytes + 1)
        var rights = Self.work(1)
        (rights.rights, rights.date) = (long, "1665")
        var page = Self.work(2)
        (page.landingPage, page.iiifManifest) = ("https://example.org/" + long, "https://example.org/m")
        var fine = Self.work(0)
        fine.date = "c. 1665"
        fine.years = YearRange(earliest: 1665, latest: 1665)
        fine.rights = "In copyright"
        let fitted = PageBudget().fit(SourcePage(total: 3, artworks: [fine, rights, page]))
        var (rightsKept, pageKept) = (rights, page)
        (rightsKept.rights, pageKept.landingPage) = (nil, nil)
        #expect(fitted.artworks == [fine, rightsKept, pageKept])
        #expect(fitted.artworks[1].date == "1665" && fitted.artworks[2].iiifManifest == "https://example.org/m")
        #expect(fitted.unreadable.isEmpty)
    }

    @Test("works that together pass the budget lose their largest, until the rest fit")
    func largestGoFirst() {
        let medium = String(repeating: "m", count: 8_000)
        let large = String(repeating: "l", count: 12_000)
        let artworks = [
            Self.work(0, title: medium), Self.work(1, title: large), Self.work(2), Self.work(3, title: medium),
        ]
        let fitted = PageBudget(maxEntryBytes: 20_000).fit(SourcePage(total: 4, artworks: artworks))
        #expect(fitted.artworks.map(\.position) == [0, 2, 3])
        #expect(fitted.unreadable.map(\.recordId) == ["oai:example:1"])
        let tight = PageBudget(maxEntryBytes: 9_000).fit(SourcePage(total: 4, artworks: artworks))
        // Of two as large, the earlier goes first.
        #expect(tight.artworks.map(\.position) == [2, 3])
        #expect(tight.unreadable.map(\.recordId) == ["oai:example:1", "oai:example:0"])
    }

    @Test("deletions and the list of unreadable records, which stay, leave less room for works")
    func whatStaysCounts() {
        let artworks = (0..<4).map { Self.work($0, title: String(repeating: "t", count: 2_000)) }
        let deletions = (0..<40).map {
            RecordDeletion(
                recordId: "oai:example:gone-\($0)-" + String(repeating: "d", count: 100), datestamp: "2026-01-01")
        }
        let alone = PageBudget(maxEntryBytes: 9_000).fit(SourcePage(total: 4, artworks: artworks))
        #expect(alone.artworks.count == 4)
        let crowded = PageBudget(maxEntryBytes: 9_000).fit(
            SourcePage(total: 4, artworks: artworks, deletions: deletions))
        #expect(crowded.deletions == deletions)
        #expect(crowded.artworks.count < 4)
        #expect(crowded.unreadable.count == 4 - crowded.artworks.count)
    }

    @Test("a record id is kept to 1,024 scalars where it only names, however its characters combine")
    func namingIsBounded() {
        // One character: a letter and 100,000 combining marks.
        let hostile = "e" + String(repeating: "\u{301}", count: 100_000)
        #expect(hostile.count == 1)
        let fitted = PageBudget().fit(
            SourcePage(total: 1, artworks: [], unreadable: [UnreadableRecord(recordId: hostile, reason: "broken")]))
        #expect(fitted.unreadable.first?.recordId.unicodeScalars.count == PageBudget.maxNamingScalars + 1)
    }

    @Test("a record's dead letter over 256 KiB leaves its bytes out and says their size; its id and reason are cut")
    func deadLetterIsBounded() {
        let page = KafkaConsumerMessage(
            topic: ArtpipeTopic.pageRequests, partition: 0, offset: 7, key: Array("p:1".utf8), value: [], headers: [])
        let record = UnreadableRecord(
            recordId: String(repeating: "i", count: 5_000), reason: "deep",
            bytes: Array(repeating: UInt8(ascii: "a"), count: DeadLetter.maxRecordBytes + 1))
        let letter = DeadLetter.record(ofRecord: record, page: page, worker: "fetch")
        #expect(letter.value.isEmpty)
        #expect(letter.headers.value(of: DeadLetter.valueCutHeader) == String(DeadLetter.maxRecordBytes + 1))
        #expect(letter.headers.value(of: DeadLetter.recordIdHeader)?.count == DeadLetter.maxReasonLength + 1)
        var small = record
        small.bytes = Array("<record/>".utf8)
        #expect(DeadLetter.record(ofRecord: small, page: page, worker: "fetch").value == small.bytes)
    }
}
