import Testing

@testable import FetchWorker

/// The parser on EDM written from the museum's documentation and the public harvesters that
/// read the real endpoint (no real answer of the new endpoint is recorded publicly): both
/// `isShownBy` shapes, agents inside records, several languages, deletions, a broken record.
@Suite("OAI-PMH and EDM")
struct OAIParserTests {
    static let page = """
        <?xml version="1.0" encoding="UTF-8"?>
        <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
          <responseDate>2026-11-20T10:00:00Z</responseDate>
          <request verb="ListRecords" metadataPrefix="edm">https://data.rijksmuseum.nl/oai</request>
          <ListRecords>
            <record>
              <header>
                <identifier>https://id.rijksmuseum.nl/200107928</identifier>
                <datestamp>2026-06-12T08:15:02Z</datestamp>
                <setSpec>26121</setSpec>
              </header>
              <metadata>
                <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"
                    xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:ore="http://www.openarchives.org/ore/terms/"
                    xmlns:skos="http://www.w3.org/2004/02/skos/core#">
                  <ore:Aggregation rdf:about="https://id.rijksmuseum.nl/200107928/aggregation">
                    <edm:aggregatedCHO rdf:resource="https://id.rijksmuseum.nl/200107928"/>
                    <edm:isShownBy rdf:resource="https://iiif.micr.io/PJEZO/full/max/0/default.jpg"/>
                    <edm:object rdf:resource="https://iiif.micr.io/PJEZO/full/300,/0/default.jpg"/>
                    <edm:rights rdf:resource="http://creativecommons.org/publicdomain/mark/1.0/"/>
                  </ore:Aggregation>
                  <edm:ProvidedCHO rdf:about="https://id.rijksmuseum.nl/200107928">
                    <dc:identifier>http://hdl.handle.net/10934/RM0001.COLLECT.5216</dc:identifier>
                    <dc:identifier>SK-C-5</dc:identifier>
                    <dc:title xml:lang="nl">De Nachtwacht</dc:title>
                    <dc:title xml:lang="en">The Night Watch</dc:title>
                    <dc:creator rdf:resource="https://id.rijksmuseum.nl/21029638"/>
                  </edm:ProvidedCHO>
                  <edm:Agent rdf:about="https://id.rijksmuseum.nl/21029638">
                    <skos:prefLabel xml:lang="nl">Rembrandt van Rijn</skos:prefLabel>
                    <skos:prefLabel xml:lang="en">Rembrandt van Rijn (en)</skos:prefLabel>
                  </edm:Agent>
                </rdf:RDF>
              </metadata>
            </record>
            <record>
              <header>
                <identifier>https://id.rijksmuseum.nl/200108370</identifier>
                <datestamp>2026-06-13T09:00:00Z</datestamp>
              </header>
              <metadata>
                <r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:d="http://purl.org/dc/elements/1.1/"
                    xmlns:e="http://www.europeana.eu/schemas/edm/" xmlns:o="http://www.openarchives.org/ore/terms/">
                  <o:Aggregation>
                    <e:aggregatedCHO>
                      <e:ProvidedCHO r:about="https://id.rijksmuseum.nl/200108370">
                        <d:identifier>RP-P-1906-2550</d:identifier>
                        <d:title xml:lang="nl">Gezicht op Delft</d:title>
                        <d:title xml:lang="de">Ansicht von Delft</d:title>
                        <d:creator>Vermeer, Johannes</d:creator>
                      </e:ProvidedCHO>
                    </e:aggregatedCHO>
                    <e:isShownBy>
                      <e:WebResource r:about="https://iiif.micr.io/AbCd/full/max/0/default.jpg"/>
                    </e:isShownBy>
                  </o:Aggregation>
                </r:RDF>
              </metadata>
            </record>
            <record>
              <header status="deleted">
                <identifier>https://id.rijksmuseum.nl/200100001</identifier>
                <datestamp>2026-06-14T00:00:01Z</datestamp>
              </header>
            </record>
            <record>
              <header>
                <identifier>https://id.rijksmuseum.nl/200100002</identifier>
                <datestamp>2026-06-14T00:00:02Z</datestamp>
              </header>
              <metadata>
                <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
                    xmlns:edm="http://www.europeana.eu/schemas/edm/">
                  <edm:ProvidedCHO rdf:about="https://id.rijksmuseum.nl/200100002"/>
                </rdf:RDF>
              </metadata>
            </record>
            <resumptionToken completeListSize="838147" cursor="0">c2V0fDIwMA==</resumptionToken>
          </ListRecords>
        </OAI-PMH>
        """

    @Test("records, deletions, the token and the list size are read; a broken record is reported, not fatal")
    func pageOfRecords() throws {
        let page = try OAIResponseParser(language: "en").parse(Array(Self.page.utf8))
        #expect(page.resumptionToken == "c2V0fDIwMA==")
        #expect(page.completeListSize == 838_147)
        #expect(page.responseDate == "2026-11-20T10:00:00Z")
        #expect(page.records.count == 3)
        let nightWatch = page.records[0]
        #expect(nightWatch.identifier == "https://id.rijksmuseum.nl/200107928")
        #expect(nightWatch.objectNumber == "SK-C-5", "the handle is skipped for the object number")
        #expect(nightWatch.title == "The Night Watch")
        #expect(nightWatch.creator == "Rembrandt van Rijn (en)")
        #expect(nightWatch.imageURL == "https://iiif.micr.io/PJEZO/full/max/0/default.jpg")
        let delft = page.records[1]
        #expect(delft.objectNumber == "RP-P-1906-2550")
        #expect(delft.creator == "Vermeer, Johannes", "a literal creator")
        #expect(delft.imageURL == "https://iiif.micr.io/AbCd/full/max/0/default.jpg", "isShownBy as a WebResource")
        #expect(delft.title == "Ansicht von Delft", "no English title: the smallest language code, deterministically")
        #expect(
            page.records[2]
                == OAIRecord(
                    identifier: "https://id.rijksmuseum.nl/200100001", datestamp: "2026-06-14T00:00:01Z", deleted: true)
        )
        #expect(page.unreadable.map(\.identifier) == ["https://id.rijksmuseum.nl/200100002"])
        #expect(page.unreadable.first?.reason.contains("object number") == true)
    }

    @Test("the language asked for picks titles and names")
    func language() throws {
        let page = try OAIResponseParser(language: "nl").parse(Array(Self.page.utf8))
        #expect(page.records[0].title == "De Nachtwacht")
        #expect(page.records[0].creator == "Rembrandt van Rijn")
        #expect(page.records[1].title == "Gezicht op Delft")
    }

    @Test("OAI errors come by code; an empty token ends the list; what is not OAI-PMH is refused")
    func errorsAndEnd() throws {
        let parser = OAIResponseParser(language: "en")
        let expired = """
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-11-20T10:00:00Z</responseDate>
            <error code="badResumptionToken">The value of the resumptionToken argument is invalid or expired.</error></OAI-PMH>
            """
        #expect(
            throws: OAIError(
                code: "badResumptionToken", message: "The value of the resumptionToken argument is invalid or expired.")
        ) {
            try parser.parse(Array(expired.utf8))
        }
        let last = """
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>
            <resumptionToken completeListSize="1" cursor="200"/></ListRecords></OAI-PMH>
            """
        let end = try parser.parse(Array(last.utf8))
        #expect(end.resumptionToken == nil && end.records.isEmpty)
        // A web page or a body that is not XML is the server having a moment: tried again later.
        #expect(throws: UnrecognisedAnswerError.self) {
            try parser.parse(Array("<html><body>maintenance</body></html>".utf8))
        }
        #expect(throws: UnrecognisedAnswerError.self) { try parser.parse(Array("{\"not\": \"xml\"}".utf8)) }
        // Well-formed XML of another kind breaks the contract.
        #expect(throws: SourceFormatError.self) { try parser.parse(Array("<records><record/></records>".utf8)) }
    }

    @Test("a record that is not well-formed XML is unreadable with its bytes; the rest of its page is read")
    func brokenRecordAlone() throws {
        func record(_ number: Int, title: String) -> String {
            """
            <record><header><identifier>oai:x:\(number)</identifier><datestamp>2026-06-14T00:00:0\(number)Z</datestamp></header>
            <metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title>\(title)</dc:title><dc:identifier>N-\(number)</dc:identifier></oai_dc:dc></metadata></record>
            """
        }
        // A control character XML forbids, and a tag cut short: each breaks its own record only.
        let broken = [record(2, title: "Bad \u{1} byte"), record(4, title: "Cut <dc:title")]
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-11-20T10:00:00Z</responseDate>
            <ListRecords>\(record(1, title: "One"))\(broken[0])\(record(3, title: "Three"))\(broken[1])
            <resumptionToken completeListSize="9">next</resumptionToken></ListRecords></OAI-PMH>
            """
        let page = try OAIResponseParser(language: "en").parse(Array(body.utf8))
        #expect(page.records.map(\.objectNumber) == ["N-1", "N-3"])
        #expect(page.unreadable.map(\.identifier) == ["oai:x:2", "oai:x:4"])
        #expect(page.unreadable.map { $0.bytes.map { String(decoding: $0, as: UTF8.self) } } == broken)
        #expect(page.unreadable.allSatisfy { $0.reason.contains("not well-formed") })
        #expect(page.resumptionToken == "next" && page.completeListSize == 9)
        // An answer cut short in its envelope is still the server's trouble, for the moment.
        #expect(throws: UnrecognisedAnswerError.self) {
            try OAIResponseParser(language: "en").parse(Array(body.utf8.dropLast(40)))
        }
    }
}

extension OAIParserTests {
    @Test(
        "a record holding a record tag of its own (unbalanced, or MARC's nested record) costs at most itself; the page's other records are read"
    )
    func recordTagsInsideARecord() throws {
        func record(_ number: Int, _ inside: String = "") -> String {
            """
            <record><header><identifier>oai:x:\(number)</identifier><datestamp>2026-06-14T00:00:0\(number)Z</datestamp></header>
            <metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title>Work \(number)\(inside)</dc:title><dc:identifier>N-\(number)</dc:identifier></oai_dc:dc></metadata></record>
            """
        }
        // An opening record tag never closed, then a
        // nested record element, and a broken character so that the page is read record by record.
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-11-20T10:00:00Z</responseDate>
            <ListRecords>\(record(1))\(record(2, "<lido:record\tD>"))\(record(3, "<x><record>in</record></x>"))\(record(4, "\u{1}"))\(record(5))
            <resumptionToken completeListSize="9">next</resumptionToken></ListRecords></OAI-PMH>
            """
        let spans = try #require(OAIRecordSpans(Array(body.utf8)))
        #expect(spans.records.count == 5)
        let page = try OAIResponseParser(language: "en").parse(Array(body.utf8))
        #expect(page.records.map(\.objectNumber) == ["N-1", "N-3", "N-5"])
        #expect(page.unreadable.map(\.identifier) == ["oai:x:2", "oai:x:4"])
    }
}
