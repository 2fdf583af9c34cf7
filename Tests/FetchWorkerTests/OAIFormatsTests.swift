import ArtpipeSupport
import ArtpipeTestKit
import Testing

@testable import FetchWorker

/// The three formats read from real records (provenance in the fixtures' SOURCES.md): which
/// field became the object number, title, artist and image.
@Suite("OAI-PMH formats: EDM with proxies, LIDO, oai_dc")
struct OAIFormatsTests {
    static func metadata(_ name: String, language: String = "en") throws -> OAIRecord {
        let root = try XMLTree.parse(try RecordedFixture.bytes("oai/\(name)", fileExtension: "xml"))
        // A record excerpt: what its <metadata> holds; else the metadata document itself.
        let metadata = root.children.first { $0.name == "metadata" }?.children.first ?? root
        return try OAIRecordReaders(language: language).read(
            metadata, header: OAIRecord(identifier: "oai:record", datestamp: "2026-01-01T00:00:00Z", deleted: false))
    }

    @Test("Europeana's EDM: the provider's proxy names the artist as written, a PDF is no image")
    func europeanaProxies() throws {
        let record = try Self.metadata("europeana-metis_record_two-proxies_agent-and-literal")
        #expect(record.objectNumber == "62-7")
        #expect(record.creator == "Brandsma, Titus, O.Carm., 1881-1942")
        #expect(
            record.title
                == "Teksten (fotokopieën, vijf bladzijden), door Titus geschreven voor zijn boek over de H. Theresia. (originelen aanwezig in het N.C.I. te Boxmeer)."
        )
        #expect(record.imageURL == nil)
    }

    @Test("LIDO from a state museum: workID, title, the production event's preferred name, the image")
    func lidoStateMuseum() throws {
        let record = try Self.metadata("lido-examples_DDB_SMB_Skulpturensammlung")
        #expect(record.objectNumber == "2943")
        #expect(record.title == "Kniender Engel")
        #expect(record.creator == "Giambattista di Alberto Bregno")
        #expect(record.imageURL == "https://id.smb.museum/digital-asset/3371759")
    }

    @Test("LIDO from museum-digital: its own event vocabulary, names by inherited language, the full image")
    func lidoMuseumDigital() throws {
        let record = try Self.metadata("lido-examples_DDB_museum-digital_Terra_Sigillata_Museum")
        #expect(record.objectNumber == "TSM 2022-0157")
        #expect(record.title == "Rekonstruierter Knochenspatel zur Herstellung von Ratterdekor")
        // Both names are German (the untagged one inherits descriptiveMetadata's xml:lang="de"):
        // asked in English, the smallest, deterministically; asked in German, the first.
        #expect(record.creator == "Adam Winter")
        #expect(
            record.imageURL
                == "https://rlp.museum-digital.de/data/rlp/images/93/93855-tsm_2022-0157/knochenspatel_zur_herstel/knochenspatel-zur-herstellung-von-ratterdekor-93855-458752.jpg"
        )
        #expect(
            try Self.metadata("lido-examples_DDB_museum-digital_Terra_Sigillata_Museum", language: "de").creator
                == "Winter, Adam")
    }

    @Test("oai_dc: the first creator as written, an image URL from any field, none said as none")
    func dublinCore() throws {
        let iowa = try Self.metadata("share-iastate_oai_dc_record_museums-exhibitguides-1000_EXCERPT")
        #expect(iowa.creator == "Bix, Amy")
        #expect(iowa.title == "(Re)discovering S(h)elves: Selections from the Permanent Collection")
        #expect(iowa.objectNumber == "oai:record", "every dc:identifier is a URL: the record's own id")
        #expect(iowa.imageURL == "http://lib.dr.iastate.edu/museums_exhibitguides/1000/thumbnail.jpg")
        let utah = try Self.metadata("share-utah_oai_dc_record_Art2-10326_EXCERPT")
        #expect(utah.creator == "")
        #expect(utah.title == "Howard Clark Scholarship Exhibition, 2016")
        #expect(utah.objectNumber == "DSC_0775.jpg")
        #expect(utah.imageURL == nil, "a file name is not a URL, a landing page is not an image")
    }

    @Test("the format is chosen from the repository's offer: EDM, then LIDO, then oai_dc")
    func formatChoice() {
        let dc = OAIMetadataFormat.Offered(prefix: "oai_dc", namespace: "http://www.openarchives.org/OAI/2.0/oai_dc/")
        let lido = OAIMetadataFormat.Offered(prefix: "lido", namespace: "http://www.lido-schema.org")
        let edm = OAIMetadataFormat.Offered(prefix: "rdf", namespace: "http://www.europeana.eu/schemas/edm")
        let mods = OAIMetadataFormat.Offered(prefix: "mods", namespace: "http://www.loc.gov/mods/v3")
        #expect(OAIMetadataFormat.choose(from: [dc, lido, edm]) == "rdf")
        #expect(OAIMetadataFormat.choose(from: [mods, dc, lido]) == "lido")
        #expect(OAIMetadataFormat.choose(from: [mods, dc]) == "oai_dc")
        #expect(OAIMetadataFormat.choose(from: [mods]) == nil)
    }

    @Test("metadata in a format artpipe does not read, or a LIDO record without a title, is unreadable")
    func unreadable() throws {
        let readers = OAIRecordReaders(language: "en")
        let header = OAIRecord(identifier: "x", datestamp: "2026-01-01T00:00:00Z", deleted: false)
        let mods = try XMLTree.parse(
            Array(
                #"<mods xmlns="http://www.loc.gov/mods/v3"/>"#
                    .utf8))
        #expect(throws: OAIRecordUnreadable.self) { try readers.read(mods, header: header) }
        let untitled = try XMLTree.parse(
            Array(
                #"<lido xmlns="http://www.lido-schema.org"><lidoRecID>1</lidoRecID></lido>"#
                    .utf8))
        #expect(throws: OAIRecordUnreadable("LIDO record without a title (lido:titleWrap/lido:titleSet)")) {
            try readers.read(untitled, header: header)
        }
    }
}

extension OAIFormatsTests {
    @Test(
        "a LIDO image measured as Int.min, Int.max, a negative side or no number is read, the longest real side chosen"
    )
    func hostileMeasurements() throws {
        func representation(_ url: String, _ value: String) -> String {
            """
            <lido:resourceRepresentation><lido:linkResource>\(url)</lido:linkResource>
            <lido:resourceMeasurementsSet><lido:measurementType>width</lido:measurementType>
            <lido:measurementValue>\(value)</lido:measurementValue></lido:resourceMeasurementsSet>
            </lido:resourceRepresentation>
            """
        }
        let record = """
            <lido:lido xmlns:lido="http://www.lido-schema.org"><lido:lidoRecID>R-1</lido:lidoRecID>
            <lido:descriptiveMetadata xml:lang="en"><lido:objectIdentificationWrap><lido:titleWrap><lido:titleSet>
            <lido:appellationValue>Coin</lido:appellationValue></lido:titleSet></lido:titleWrap></lido:objectIdentificationWrap>
            </lido:descriptiveMetadata><lido:administrativeMetadata><lido:resourceWrap><lido:resourceSet>
            \(representation("https://x.example/min.jpg", "-9223372036854775808"))
            \(representation("https://x.example/huge.jpg", "99999999999999999999999"))
            \(representation("https://x.example/negative.jpg", "-5"))
            \(representation("https://x.example/real.jpg", "1200"))
            \(representation("https://x.example/max.jpg", "9223372036854775807"))
            </lido:resourceSet></lido:resourceWrap></lido:administrativeMetadata></lido:lido>
            """
        let read = try OAIRecordReaders(language: "en").read(
            try XMLTree.parse(Array(record.utf8)),
            header: OAIRecord(identifier: "oai:x:1", datestamp: "2026-01-01T00:00:00Z", deleted: false))
        // Int.max is a side as any other: the longest.
        #expect(read.imageURL == "https://x.example/max.jpg")
        let withoutMax = record.replacingOccurrences(
            of: representation("https://x.example/max.jpg", "9223372036854775807"), with: "")
        let again = try OAIRecordReaders(language: "en").read(
            try XMLTree.parse(Array(withoutMax.utf8)),
            header: OAIRecord(identifier: "oai:x:1", datestamp: "2026-01-01T00:00:00Z", deleted: false))
        #expect(again.imageURL == "https://x.example/real.jpg")
    }
}
