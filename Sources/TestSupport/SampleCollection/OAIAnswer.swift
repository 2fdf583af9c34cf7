import ArtpipeSupport
import Foundation

/// The sample collection as the museum's OAI-PMH endpoint serves it: `ListRecords` of EDM
/// records, a fixed number a page, then `resumptionToken` pages.
///
/// Like the real answers it mixes the two shapes of `edm:isShownBy` (a reference, or a nested
/// `edm:WebResource`), names creators through an `edm:Agent` inside the record (or as a
/// literal), and gives titles in English and Dutch.
struct OAIAnswer {
    static let pageSize = 200
    /// Revision 0's datestamps: one second apart from here, in the order of the works' ids.
    static let firstDatestamp = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// Where a list stands; the token carries it, since a token replaces every other parameter.
    struct Position: Equatable {
        var offset: Int
        var from: String?
        var until: String?
        /// When the token was handed out (ms since the epoch), for expiry.
        var issued: Int64
        /// The list's size when the token was handed out: a smaller list refuses it, as oai-repo does.
        var size = 0

        /// Base64 with `+` and `/` in it, as oai-repo's tokens may have: a client that sends
        /// them unencoded gets them back as a space.
        var token: String {
            Self.marker + Data("\(offset)|\(from ?? "")|\(until ?? "")|\(issued)|\(size)".utf8).base64EncodedString()
        }

        static let marker = "+/"

        init(offset: Int, from: String?, until: String?, issued: Int64, size: Int = 0) {
            (self.offset, self.from, self.until, self.issued, self.size) = (offset, from, until, issued, size)
        }

        init?(token: String) {
            guard token.hasPrefix(Self.marker),
                let data = Data(base64Encoded: String(token.dropFirst(Self.marker.count)))
            else { return nil }
            let parts = String(decoding: data, as: UTF8.self).split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 5, let offset = Int(parts[0]), let issued = Int64(parts[3]), let size = Int(parts[4])
            else { return nil }
            self.init(
                offset: offset, from: parts[1].isEmpty ? nil : String(parts[1]),
                until: parts[2].isEmpty ? nil : String(parts[2]), issued: issued, size: size)
        }
    }

    /// One entry of the list at some revision: a work's current record, or its deletion.
    struct Entry {
        var id: Int
        var datestamp: String
        /// Nil for a deleted record.
        var work: SampleWork?
        var imageVersion: Int?
    }

    /// The list at the last of `revisionTimes` (revision N happened at `revisionTimes[N - 1]`), in
    /// identifier (string) order as the museum's server lists it, not datestamp order: a harvest
    /// that resumes from the newest datestamp it reached would skip records. Revision 0's works
    /// are a second apart from ``firstDatestamp``.
    static func entries(_ collection: SampleCollection, revisionTimes: [Date]) -> [Entry] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return collection.revision(revisionTimes.count).map { original, state in
            let changed =
                state.changedAt == 0
                ? firstDatestamp.addingTimeInterval(Double(original.id)) : revisionTimes[state.changedAt - 1]
            return Entry(
                id: original.id, datestamp: formatter.string(from: changed), work: state.work,
                imageVersion: state.imageVersion)
        }.sorted { identifier(of: $0.id) < identifier(of: $1.id) }
    }

    /// UTC, second granularity: `YYYY-MM-DDThh:mm:ssZ`.
    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// A name's id that is the same in every process (`hashValue` is not).
    static func stableID(_ text: String) -> UInt32 {
        text.utf8.reduce(2_166_136_261) { ($0 ^ UInt32($1)) &* 16_777_619 }
    }

    static func identifier(of work: SampleWork) -> String { identifier(of: work.id) }
    static func identifier(of id: Int) -> String { "https://id.rijksmuseum.nl/sample/\(id)" }

    /// The envelope around `body`.
    static func document(_ body: String, responseDate: Date, verb: String, request: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
        <responseDate>\(format(responseDate))</responseDate>
        <request verb="\(HTMLText.escaped(verb))">\(HTMLText.escaped(request))</request>
        \(body)
        </OAI-PMH>
        """
    }

    static func error(_ code: String, _ message: String) -> String {
        "<error code=\"\(code)\">\(HTMLText.escaped(message))</error>"
    }

    /// `Identify`: what a harvester needs to plan (the earliest datestamp, the granularity).
    static func identify(baseURL: String, earliest: String) -> String {
        """
        <Identify><repositoryName>artpipe sample collection</repositoryName>\
        <baseURL>\(HTMLText.escaped(baseURL))</baseURL><protocolVersion>2.0</protocolVersion>\
        <earliestDatestamp>\(earliest)</earliestDatestamp><deletedRecord>persistent</deletedRecord>\
        <granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>
        """
    }

    /// One page of `ListRecords` (or of `ListIdentifiers`: the headers alone) from `position`,
    /// with the token of the next page if any.
    static func list(
        _ entries: [Entry], verb: String, position: Position, completeListSize: Int?, imageBase: String,
        next: Position?
    ) -> String {
        var text = "<\(verb)>\n"
        for entry in entries {
            if verb == "ListIdentifiers" {
                let status = entry.work == nil ? " status=\"deleted\"" : ""
                text += "<header\(status)><identifier>\(identifier(of: entry.id))</identifier>"
                text += "<datestamp>\(entry.datestamp)</datestamp></header>\n"
            } else if let work = entry.work {
                text += record(work, datestamp: entry.datestamp, imageVersion: entry.imageVersion, imageBase: imageBase)
            } else {
                text += """
                    <record><header status="deleted"><identifier>https://id.rijksmuseum.nl/sample/\(entry.id)</identifier>\
                    <datestamp>\(entry.datestamp)</datestamp></header></record>

                    """
            }
        }
        let cursor =
            "cursor=\"\(position.offset)\"" + (completeListSize.map { " completeListSize=\"\($0)\"" } ?? "")
        if let next {
            // Padded with white space, as some servers write it (the recorded Europeana answer).
            text += "<resumptionToken \(cursor)>\n    \(next.token)\n  </resumptionToken>\n"
        } else if position.offset > 0 {
            text += "<resumptionToken \(cursor)/>\n"
        }
        return text + "</\(verb)>"
    }

    static func record(_ work: SampleWork, datestamp: String, imageVersion: Int?, imageBase: String) -> String {
        let about = identifier(of: work)
        var object = """
            <edm:ProvidedCHO rdf:about="\(about)">
            <dc:identifier>http://hdl.handle.net/10934/RM0001.SAMPLE.\(work.id)</dc:identifier>
            <dc:identifier>\(HTMLText.escaped(work.objectNumber))</dc:identifier>
            <dc:title xml:lang="nl">\(HTMLText.escaped("NL: " + work.title))</dc:title>
            <dc:title xml:lang="en">\(HTMLText.escaped(work.title))</dc:title>

            """
        var agents = ""
        if !work.maker.isEmpty {
            if work.id % 3 == 0 {
                object += "<dc:creator>\(HTMLText.escaped(work.maker))</dc:creator>\n"
            } else {
                let agent = "https://id.rijksmuseum.nl/sample/agent/\(stableID(work.maker))"
                object += "<dc:creator rdf:resource=\"\(agent)\"/>\n"
                agents += """
                    <edm:Agent rdf:about="\(agent)">
                    <skos:prefLabel xml:lang="nl">\(HTMLText.escaped(work.maker))</skos:prefLabel>
                    <skos:prefLabel xml:lang="en">\(HTMLText.escaped(work.maker))</skos:prefLabel>
                    </edm:Agent>

                    """
            }
        }
        if let date = work.date { object += "<dc:date>\(date)</dc:date>\n" }
        object += "</edm:ProvidedCHO>\n"
        var aggregation = "<ore:Aggregation rdf:about=\"\(about)/aggregation\">\n"
        aggregation += "<edm:aggregatedCHO rdf:resource=\"\(about)\"/>\n"
        if work.image != nil {
            // A replaced image gets another URL for the same picture, as a new upload would.
            let version = imageVersion.map { "?version=\($0)" } ?? ""
            let image = "\(imageBase)/iiif/\(work.id)/full/max/0/default.jpg\(version)"
            aggregation +=
                work.id % 2 == 0
                ? "<edm:isShownBy rdf:resource=\"\(image)\"/>\n"
                : "<edm:isShownBy><edm:WebResource rdf:about=\"\(image)\"/></edm:isShownBy>\n"
            aggregation += "<edm:object rdf:resource=\"\(imageBase)/iiif/\(work.id)/full/300,/0/default.jpg\"/>\n"
        }
        aggregation += "<edm:isShownAt rdf:resource=\"\(work.landingPage)\"/>\n"
        aggregation += "<edm:rights rdf:resource=\"http://creativecommons.org/publicdomain/mark/1.0/\"/>\n"
        aggregation += "</ore:Aggregation>\n"
        return """
            <record>
            <header><identifier>\(about)</identifier><datestamp>\(datestamp)</datestamp><setSpec>sample</setSpec></header>
            <metadata>
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/" \
            xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:ore="http://www.openarchives.org/ore/terms/" \
            xmlns:skos="http://www.w3.org/2004/02/skos/core#">
            \(aggregation)\(object)\(agents)</rdf:RDF>
            </metadata>
            </record>

            """
    }
}
