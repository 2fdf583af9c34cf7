import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import FuzzTestKit
import Testing

@testable import FetchWorker

/// Hostile input, made by ``InputMutator`` from the real records and answers in the test kit's
/// fixtures: every reader refuses it with an error or reads it, and never ends the process.
/// `make test` tries a fixed seed and a bounded count; `make fuzz` (scripts/fuzz.sh) the
/// same targets for as long as it is given.
@Suite("Hostile input is refused, never a crash", .timeLimit(.minutes(5)))
struct HostileInputFuzzTests {
    /// How many inputs each target tries from the fixed seed in `make test`.
    static let count = 1_500

    @Test("XMLTree refuses or reads every input made from the real records")
    func xmlTree() throws {
        let report = try FuzzCampaign(target: "xml-tree", count: Self.count).run(InputMutator(seeds: try Self.xml())) {
            (try? XMLTree.parse($0)) != nil
        }
        #expect(report.refused > 0 && report.refused < report.inputs, "\(report)")
    }

    @Test("the EDM, LIDO and oai_dc readers refuse or read every record made from the real ones")
    func recordReaders() throws {
        let readers = OAIRecordReaders(language: "en")
        let header = OAIRecord(identifier: "oai:fuzz:1", datestamp: "2026-12-04T00:00:00Z", deleted: false)
        let mutator = InputMutator(seeds: try Self.metadata())
        let report = try FuzzCampaign(target: "record-readers", count: Self.count).run(mutator) { bytes in
            guard let root = try? XMLTree.parse(bytes) else { return false }
            return (try? readers.read(root, header: header)) != nil
        }
        #expect(report.refused > 0 && report.refused < report.inputs, "\(report)")
    }

    @Test(
        "a hostile record between two good ones is one unreadable record named by its identifier, and the good ones are read"
    )
    func hostileRecordOnAPage() throws {
        let parser = OAIResponseParser(language: "en")
        let mutator = InputMutator(seeds: try Self.metadata())
        var (unreadable, number) = (0, -1)
        let report = try FuzzCampaign(target: "oai-page", count: Self.count).run(mutator) { metadata in
            number += 1
            let page = Self.page(around: metadata)
            guard let read = try? parser.parse(page) else {
                Issue.record("a page with one hostile record failed whole: \(Self.quote(metadata, number))")
                return false
            }
            // The mutated bytes may themselves hold record tags (a seed spliced in), which
            // change where records lie; then only "no crash" is asked.
            guard OAIRecordSpans(page)?.records.count == 3 else { return true }
            let good = read.records.filter { $0.identifier != Self.hostile }.map(\.objectNumber)
            #expect(good == ["GOOD-1", "GOOD-3"], "\(Self.quote(metadata, number))")
            let hostile =
                read.records.filter { $0.identifier == Self.hostile }.count
                + read.unreadable.filter { $0.identifier == Self.hostile }.count
            #expect(hostile == 1, "the hostile record is one record or one unreadable: \(Self.quote(metadata, number))")
            unreadable += read.unreadable.count
            return read.unreadable.isEmpty
        }
        #expect(report.inputs > 0 && unreadable > 0, "\(report)")
    }

    @Test("the JSON sources (the Rijksmuseum's two APIs, Linked Art, Flickr, iTunes) refuse or read every answer")
    func jsonSources() throws {
        let legacy = try FuzzCampaign(target: "legacy-json", count: Self.count / 2).run(
            InputMutator(seeds: try Self.fixtures(["legacy_collection_en_q-vermeer_ps10__farlake"]))
        ) { body in
            guard let response = try? LegacyCollectionSource.parse(body, imageEdge: 400) else { return false }
            _ = LegacyCollectionSource.artworks(of: response, imageEdge: 400)
            return true
        }
        let linkedArt = try FuzzCampaign(target: "linked-art", count: Self.count / 2).run(
            InputMutator(
                seeds: try Self.fixtures([
                    "arrt_record_samson_attributed_TRIMMED", "new_linked-art_HumanMadeObject_2001__maksym-oliinyk2",
                    "new_linked-art_VisualItem_202107928__maksym-oliinyk2", "new_search-api_page1__maksym-oliinyk2",
                ]))
        ) { body in
            let data = Data(body)
            let object = try? LinkedArt.decoder.decode(LinkedArt.HumanMadeObject.self, from: data)
            let visual = try? LinkedArt.decoder.decode(LinkedArt.VisualItem.self, from: data)
            let page = try? LinkedArt.decoder.decode(LinkedArt.SearchPage.self, from: data)
            return object != nil || visual != nil || page != nil
        }
        let flickr = try FuzzCampaign(target: "flickr", count: Self.count / 2).run(
            InputMutator(seeds: try Self.fixtures(["flickr/shoya123_photos.search_cat_extras_perpage20_page1"]))
        ) { body in
            guard let photos = try? FlickrSearchSource.parse(body) else { return false }
            _ = FlickrSearchSource.artworks(of: photos.photo, imageEdge: 400)
            return true
        }
        let iTunes = try FuzzCampaign(target: "itunes", count: Self.count / 2).run(
            InputMutator(seeds: try Self.fixtures(["itunes/yanuarash_search_musicVideo_4results"]))
        ) { body in
            guard let response = try? ITunesSearchSource.parse(body) else { return false }
            _ = ITunesSearchSource.artworks(of: response.results, imageEdge: 400)
            return true
        }
        // Each reader both refused hostile answers and still read some damaged ones: neither
        // refusing everything nor taking every input as it came.
        for report in [legacy, linkedArt, flickr, iTunes] {
            #expect(report.refused > 0 && report.refused < report.inputs, "\(report)")
        }
    }

    // MARK: - Seeds

    static let hostile = "oai:fuzz:2"

    /// The XML fixtures whole: OAI-PMH answers, record excerpts, EDM and LIDO documents; and a
    /// LIDO record with measured image representations, which none of the real ones has, so
    /// that the reader's ranking of sides is reached.
    static func xml() throws -> [[UInt8]] {
        try Self.oaiFixtures.map { try RecordedFixture.bytes("oai/\($0)", fileExtension: "xml") }
            + [Array(Self.measuredLIDO.utf8)]
    }

    static let measuredLIDO = """
        <lido:lido xmlns:lido="http://www.lido-schema.org"><lido:lidoRecID>R-7</lido:lidoRecID>
        <lido:descriptiveMetadata xml:lang="en"><lido:objectIdentificationWrap><lido:titleWrap><lido:titleSet>
        <lido:appellationValue lido:pref="preferred">Coin</lido:appellationValue></lido:titleSet></lido:titleWrap>
        </lido:objectIdentificationWrap></lido:descriptiveMetadata><lido:administrativeMetadata><lido:resourceWrap>
        <lido:resourceSet lido:sortorder="2"><lido:resourceRepresentation lido:type="image_thumb">
        <lido:linkResource lido:formatResource="image/jpeg">https://x.example/t.jpg</lido:linkResource>
        <lido:resourceMeasurementsSet><lido:measurementType>width</lido:measurementType>
        <lido:measurementValue>120</lido:measurementValue></lido:resourceMeasurementsSet></lido:resourceRepresentation>
        <lido:resourceRepresentation lido:type="image_master"><lido:linkResource>https://x.example/m.jpg</lido:linkResource>
        <lido:resourceMeasurementsSet><lido:measurementType>height</lido:measurementType>
        <lido:measurementValue>2400</lido:measurementValue></lido:resourceMeasurementsSet></lido:resourceRepresentation>
        </lido:resourceSet></lido:resourceWrap></lido:administrativeMetadata></lido:lido>
        """

    /// What a record's `<metadata>` holds, from each XML fixture: EDM, LIDO and `oai_dc`.
    static func metadata() throws -> [[UInt8]] {
        try xml().compactMap { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            if let dc = text.range(of: "<oai_dc:dc"), let end = text.range(of: "</oai_dc:dc>") {
                return Array(text[dc.lowerBound..<end.upperBound].utf8)
            }
            guard !text.contains("<record"), !text.contains("OAI-PMH") else { return nil }
            // Without its declaration, which may not stand inside an answer.
            guard text.hasPrefix("<?xml"), let declaration = text.range(of: "?>") else { return bytes }
            return Array(text[declaration.upperBound...].utf8)
        }
    }

    static let oaiFixtures = [
        "europeana-metis_oaiListIdentifiers_padded-token", "europeana-metis_record_two-proxies_agent-and-literal",
        "lido-examples_DDB_SMB_Skulpturensammlung", "lido-examples_DDB_museum-digital_Terra_Sigillata_Museum",
        "share-iastate_oai_dc_record_museums-exhibitguides-1000_EXCERPT", "share-utah_oai_dc_record_Art2-10326_EXCERPT",
    ]

    static func fixtures(_ names: [String]) throws -> [[UInt8]] {
        try names.map { try RecordedFixture.bytes($0) }
    }

    /// A `ListRecords` page of three records: two good `oai_dc` records around one whose
    /// metadata is `metadata`.
    static func page(around metadata: [UInt8]) -> [UInt8] {
        func record(_ number: Int, _ metadata: String) -> String {
            """
            <record><header><identifier>oai:fuzz:\(number)</identifier><datestamp>2026-12-04T00:00:0\(number)Z</datestamp></header>
            <metadata>\(metadata)</metadata></record>
            """
        }
        let good = { (number: Int) in
            record(
                number,
                """
                <oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">\
                <dc:title>Good \(number)</dc:title><dc:identifier>GOOD-\(number)</dc:identifier></oai_dc:dc>
                """)
        }
        let head = """
            <?xml version="1.0" encoding="UTF-8"?>
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-12-04T10:00:00Z</responseDate>
            <ListRecords>\(good(1))
            """
        let tail = "\(good(3))<resumptionToken completeListSize=\"9\">next</resumptionToken></ListRecords></OAI-PMH>"
        let parts = record(2, "\u{0}").split(separator: "\u{0}", omittingEmptySubsequences: false)
        return Array((head + parts[0]).utf8) + metadata + Array((parts[1] + tail).utf8)
    }

    static func quote(_ bytes: [UInt8], _ number: Int? = nil) -> String {
        "input \(number.map(String.init) ?? "?"), \(bytes.count) bytes, starting \(String(decoding: bytes.prefix(200), as: UTF8.self).debugDescription)"
    }
}
