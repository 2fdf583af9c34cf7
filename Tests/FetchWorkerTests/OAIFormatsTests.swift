import ArtpipeSupport
import ArtpipeTestKit
import PipelineContract
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

/// Date, years, landing page, rights and IIIF, from the same real records.
extension OAIFormatsTests {
    static let header = OAIRecord(identifier: "oai:record", datestamp: "2026-01-01T00:00:00Z", deleted: false)

    static func read(_ xml: String, language: String = "en") throws -> OAIRecord {
        try OAIRecordReaders(language: language).read(try XMLTree.parse(Array(xml.utf8)), header: header)
    }

    @Test("Europeana's EDM: the provider's dc:date, isShownAt, the aggregation's rights; no IIIF")
    func europeanaDescriptiveFields() throws {
        let record = try Self.metadata("europeana-metis_record_two-proxies_agent-and-literal")
        #expect(record.date == "[ca. 1942]", "the provider's literal, not Europeana's reference to a time span")
        #expect(record.years == YearRange(earliest: 1942, latest: 1942))
        #expect(record.landingPage == "https://archivesspace-pi.nl/repositories/11/archival_objects/42779")
        #expect(record.rights == "http://creativecommons.org/publicdomain/mark/1.0/", "as written: http stays http")
        #expect(record.iiifManifest == nil)
        #expect(record.iiifImageService == nil)
    }

    @Test("the museum's EDM: dcterms:created, the object's web page, the Public Domain Mark, the IIIF service")
    func museumDescriptiveFields() throws {
        let record = try Self.metadata("artline_rijksmuseum-edm_SK-C-557_200109348")
        #expect(record.objectNumber == "SK-C-557")
        #expect(record.title == "Portrait of Feyntje van Steenkiste")
        #expect(record.creator == "Frans Hals")
        #expect(record.imageURL == "https://iiif.micr.io/syPHr/full/max/0/default.jpg")
        #expect(record.date == "1635")
        #expect(record.years == YearRange(earliest: 1635, latest: 1635))
        #expect(
            record.landingPage
                == "https://www.rijksmuseum.nl/nl/collectie/object/SK-C-557--62c0c747f3b9945b95195581d59e2979")
        #expect(record.rights == "http://creativecommons.org/publicdomain/mark/1.0/")
        #expect(record.iiifImageService == "https://iiif.micr.io/syPHr")
        #expect(record.iiifManifest == nil, "the object's dcterms:isReferencedBy are publications, not a manifest")
    }

    @Test("EDM: a web resource's manifest and IIIF service; a service of another API, a publication passed over")
    func edmManifestAndService() throws {
        let image = "https://iiif.example.org/img/1/full/full/0/default.jpg"
        let record = try Self.read(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:dcterms="http://purl.org/dc/terms/" xmlns:edm="http://www.europeana.eu/schemas/edm/"
                xmlns:ore="http://www.openarchives.org/ore/terms/" xmlns:svcs="http://rdfs.org/sioc/services#">
              <ore:Aggregation rdf:about="#aggregation">
                <edm:isShownBy rdf:resource="\(image)"/>
                <edm:rights>  https://rightsstatements.org/vocab/InC/1.0/  </edm:rights>
              </ore:Aggregation>
              <edm:ProvidedCHO rdf:about="#object">
                <dc:identifier>X-1</dc:identifier><dc:title>Jug</dc:title><dc:date>c. 1665</dc:date>
              </edm:ProvidedCHO>
              <edm:WebResource rdf:about="\(image)">
                <dcterms:isReferencedBy rdf:resource="https://example.org/publications/7"/>
                <dcterms:isReferencedBy rdf:resource="https://iiif.example.org/presentation/1/manifest"/>
                <svcs:has_service rdf:resource="https://maps.example.org/service/1"/>
                <svcs:has_service rdf:resource="https://iiif.example.org/img/1"/>
              </edm:WebResource>
              <svcs:Service rdf:about="https://maps.example.org/service/1">
                <dcterms:conformsTo rdf:resource="http://www.opengis.net/def/serviceType/ogc/wms"/>
              </svcs:Service>
              <svcs:Service rdf:about="https://iiif.example.org/img/1">
                <dcterms:conformsTo rdf:resource="http://iiif.io/api/image"/>
              </svcs:Service>
            </rdf:RDF>
            """)
        #expect(record.iiifManifest == "https://iiif.example.org/presentation/1/manifest")
        #expect(record.iiifImageService == "https://iiif.example.org/img/1")
        #expect(record.rights == "https://rightsstatements.org/vocab/InC/1.0/", "trimmed")
        #expect(record.date == "c. 1665")
        #expect(record.years == YearRange(earliest: 1665, latest: 1665))
        #expect(record.landingPage == nil)
    }

    @Test("LIDO from a state museum: no event date, recordInfoLink, the image's resource rights")
    func lidoStateMuseumDescriptiveFields() throws {
        let record = try Self.metadata("lido-examples_DDB_SMB_Skulpturensammlung")
        #expect(record.date == nil)
        #expect(record.years == nil)
        #expect(record.landingPage == "https://id.smb.museum/object/872000")
        // The work set names only the rights holder; the image's resource set names the licence.
        #expect(record.rights == "https://creativecommons.org/licenses/by-sa/4.0/")
        #expect(record.iiifManifest == nil)
        #expect(record.iiifImageService == nil)
    }

    @Test("LIDO from museum-digital: displayDate by language, years from earliest and latest dates")
    func lidoMuseumDigitalDescriptiveFields() throws {
        let name = "lido-examples_DDB_museum-digital_Terra_Sigillata_Museum"
        let record = try Self.metadata(name)
        #expect(record.date == "1953")
        #expect(record.years == YearRange(earliest: 1953, latest: 1953))
        #expect(record.landingPage == "https://rlp.museum-digital.de/object/93855")
        #expect(record.rights == "https://creativecommons.org/licenses/by-nc-nd/4.0/")
        #expect(record.iiifManifest == nil)
        #expect(record.iiifImageService == nil)
        // In Japanese the date reads "1953年": the years come from lido:earliestDate and lido:latestDate.
        let japanese = try Self.metadata(name, language: "ja")
        #expect(japanese.date == "1953年")
        #expect(japanese.years == YearRange(earliest: 1953, latest: 1953))
    }

    @Test("oai_dc: dc:date as written, the identifier that is a page, no rights where none is written")
    func dublinCoreDescriptiveFields() throws {
        let iowa = try Self.metadata("share-iastate_oai_dc_record_museums-exhibitguides-1000_EXCERPT")
        #expect(iowa.date == "2015-01-01T08:00:00Z")
        #expect(iowa.years == YearRange(earliest: 2015, latest: 2015))
        #expect(iowa.landingPage == "http://lib.dr.iastate.edu/museums_exhibitguides/1")
        #expect(iowa.rights == nil)
        #expect(iowa.iiifManifest == nil && iowa.iiifImageService == nil)
        let utah = try Self.metadata("share-utah_oai_dc_record_Art2-10326_EXCERPT")
        #expect(utah.date == "September 2016")
        #expect(utah.years == nil, "a month and a year is not a form YearText reads")
        #expect(utah.landingPage == "http://content.lib.utah.edu/cdm/ref/collection/Art2/id/10326")
        #expect(utah.rights == nil)
    }

    @Test("LIDO: earliest and latest dates without a displayDate; a work set's rights term; the HTML record link")
    func lidoDatesRightsAndLinks() throws {
        let record = try Self.read(
            """
            <lido:lido xmlns:lido="http://www.lido-schema.org"><lido:lidoRecID>R-1</lido:lidoRecID>
            <lido:descriptiveMetadata xml:lang="en"><lido:objectIdentificationWrap><lido:titleWrap><lido:titleSet>
            <lido:appellationValue>Jug</lido:appellationValue></lido:titleSet></lido:titleWrap></lido:objectIdentificationWrap>
            <lido:eventWrap><lido:eventSet><lido:event><lido:eventType><lido:term>Production</lido:term></lido:eventType>
            <lido:eventDate><lido:date><lido:earliestDate>1650</lido:earliestDate>
            <lido:latestDate>1660-12-31</lido:latestDate></lido:date></lido:eventDate></lido:event></lido:eventSet>
            </lido:eventWrap></lido:descriptiveMetadata>
            <lido:administrativeMetadata xml:lang="en"><lido:rightsWorkWrap><lido:rightsWorkSet><lido:rightsType>
            <lido:conceptID>local-7</lido:conceptID><lido:term>Public domain</lido:term></lido:rightsType>
            </lido:rightsWorkSet></lido:rightsWorkWrap><lido:recordWrap>
            <lido:recordInfoSet>
            <lido:recordInfoLink lido:formatResource="application/xml">https://x.example/lido/1.xml</lido:recordInfoLink>
            </lido:recordInfoSet><lido:recordInfoSet>
            <lido:recordInfoLink lido:formatResource="text/html">https://x.example/object/1</lido:recordInfoLink>
            </lido:recordInfoSet>
            </lido:recordWrap></lido:administrativeMetadata></lido:lido>
            """)
        #expect(record.date == "1650–1660-12-31")
        #expect(record.years == YearRange(earliest: 1650, latest: 1660))
        #expect(record.rights == "Public domain", "a concept ID that is no URI gives way to the term")
        #expect(record.landingPage == "https://x.example/object/1", "the link to the record's XML is no page")
    }

    @Test(
        "LIDO: a link whose formatResource is a bare file type is an image; one that says HTML is not",
        arguments: ["jpg", "jpeg", "tif", "TIFF", "png", ".jpg", " image/jpeg "])
    func lidoBareImageFormats(format: String) throws {
        let record = try Self.read(
            """
            <lido:lido xmlns:lido="http://www.lido-schema.org"><lido:lidoRecID>R-1</lido:lidoRecID>
            <lido:descriptiveMetadata xml:lang="en"><lido:objectIdentificationWrap><lido:titleWrap><lido:titleSet>
            <lido:appellationValue>Jug</lido:appellationValue></lido:titleSet></lido:titleWrap></lido:objectIdentificationWrap>
            </lido:descriptiveMetadata><lido:administrativeMetadata><lido:resourceWrap>
            <lido:resourceSet lido:sortorder="1"><lido:resourceRepresentation>
            <lido:linkResource lido:formatResource="html">https://x.example/object/1</lido:linkResource>
            </lido:resourceRepresentation></lido:resourceSet>
            <lido:resourceSet lido:sortorder="2"><lido:resourceRepresentation>
            <lido:linkResource lido:formatResource="\(format)">https://x.example/image/1</lido:linkResource>
            </lido:resourceRepresentation></lido:resourceSet>
            </lido:resourceWrap></lido:administrativeMetadata></lido:lido>
            """)
        #expect(record.imageURL == "https://x.example/image/1")
    }

    @Test("LIDO 1.1: values marked preferred by the terminology's URI, by language; alternatives last; sortorder")
    func lidoPreferenceByURIAndSortorder() throws {
        let record = """
            <lido:lido xmlns:lido="http://www.lido-schema.org"><lido:lidoRecID>R-2</lido:lidoRecID>
            <lido:descriptiveMetadata xml:lang="de"><lido:objectIdentificationWrap><lido:titleWrap>
            <lido:titleSet><lido:appellationValue xml:lang="en"
              lido:pref="http://terminology.lido-schema.org/lido00170">A jug, alternatively</lido:appellationValue>
            </lido:titleSet><lido:titleSet>
            <lido:appellationValue lido:pref="http://terminology.lido-schema.org/lido00169" xml:lang="de">Krug</lido:appellationValue>
            <lido:appellationValue lido:pref="http://terminology.lido-schema.org/lido00169" xml:lang="en">Jug</lido:appellationValue>
            </lido:titleSet></lido:titleWrap></lido:objectIdentificationWrap>
            <lido:eventWrap><lido:eventSet><lido:event><lido:eventType>
            <lido:conceptID>http://terminology.lido-schema.org/lido00007</lido:conceptID></lido:eventType>
            <lido:eventActor><lido:actorInRole><lido:actor>
            <lido:nameActorSet lido:sortorder="2"><lido:appellationValue>Hans Meister</lido:appellationValue>
            </lido:nameActorSet><lido:nameActorSet lido:sortorder="1">
            <lido:appellationValue>Meister, Hans</lido:appellationValue></lido:nameActorSet>
            <lido:nameActorSet><lido:appellationValue lido:pref="alternate">H. M.</lido:appellationValue></lido:nameActorSet>
            </lido:actor></lido:actorInRole></lido:eventActor></lido:event></lido:eventSet></lido:eventWrap>
            </lido:descriptiveMetadata></lido:lido>
            """
        let english = try Self.read(record)
        #expect(english.title == "Jug", "the preferred title in English: not the first preferred, nor the alternative")
        let german = try Self.read(record, language: "de")
        #expect(german.title == "Krug")
        #expect(german.creator == "Meister, Hans", "the lowest sortorder, not the first in the record")
    }

    @Test("oai_dc with dcterms fields and an image element of its own, without a title: a work with an empty title")
    func dublinCoreTermsAndOwnImage() throws {
        func record(_ fields: String) -> String {
            """
            <oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:dcterms="http://purl.org/dc/terms/">
            <dcterms:creator>Ruysch, Rachel (1664-1750)</dcterms:creator>
            <dc:identifier>https://repository.example.org/record/77</dc:identifier>
            <dc:rights>Public domain</dc:rights><dc:rights>http://creativecommons.org/publicdomain/mark/1.0/</dc:rights>
            <dcterms:date>1701</dcterms:date>\(fields)</oai_dc:dc>
            """
        }
        let untitled = try Self.read(record("<thumbnail>https://repository.example.org/image?id=77</thumbnail>"))
        #expect(untitled.title == "")
        #expect(untitled.creator == "Ruysch, Rachel (1664-1750)")
        #expect(untitled.imageURL == "https://repository.example.org/image?id=77")
        #expect(untitled.objectNumber == "oai:record")
        #expect(untitled.landingPage == "https://repository.example.org/record/77")
        #expect(untitled.rights == "http://creativecommons.org/publicdomain/mark/1.0/", "the URI before the words")
        #expect(untitled.date == "1701")
        #expect(untitled.years == YearRange(earliest: 1701, latest: 1701))
        let titled = try Self.read(record("<dcterms:title>Flowers in a Vase</dcterms:title>"))
        #expect(titled.title == "Flowers in a Vase")
        #expect(titled.imageURL == nil)
        // A creator alone, without an image, a title or an object number, describes no work.
        #expect(throws: OAIRecordUnreadable.self) { try Self.read(record("")) }
    }

    @Test(
        "a role written after a creator's life dates is not part of the name",
        arguments: [
            ("Hugo, Victor (1802-1885). Auteur du texte", "Hugo, Victor (1802-1885)"),
            ("Hugo, Victor (1802-1885). Illustrateur", "Hugo, Victor (1802-1885)"),
            ("Dupont, Marie (1901-1977). Éditeur scientifique", "Dupont, Marie (1901-1977)"),
            ("Durand, Paul (1975-....). Photographe", "Durand, Paul (1975-....)"),
            ("Martin, Jean (18..-19..). Graveur", "Martin, Jean (18..-19..)"),
            // Kept as written: no life dates, a role with a digit or in lower case, no role at all.
            ("Strozzi, Filippo. Auteur du texte", "Strozzi, Filippo. Auteur du texte"),
            ("Imprimerie royale (Paris). Éditeur", "Imprimerie royale (Paris). Éditeur"),
            (
                "Hugo, Victor (1802-1885). Auteur du texte, 2e édition",
                "Hugo, Victor (1802-1885). Auteur du texte, 2e édition"
            ),
            ("Hugo, Victor (1802-1885). auteur", "Hugo, Victor (1802-1885). auteur"),
            ("Hugo, Victor (1802-1885)", "Hugo, Victor (1802-1885)"),
            ("Brandsma, Titus, O.Carm., 1881-1942", "Brandsma, Titus, O.Carm., 1881-1942"),
        ])
    func creatorRole(written: String, name: String) {
        #expect(OAICreatorName.withoutRole(written) == name)
    }

    @Test("one person in two roles, as a catalogue writes it, is one artist")
    func creatorInTwoRoles() throws {
        let creators = try ["Auteur du texte", "Illustrateur"].map { role in
            try Self.read(
                """
                <oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:title>Les Travailleurs de la mer</dc:title><dc:creator>Hugo, Victor (1802-1885). \(role)</dc:creator>
                </oai_dc:dc>
                """
            ).creator
        }
        #expect(creators == ["Hugo, Victor (1802-1885)", "Hugo, Victor (1802-1885)"])
    }
}
