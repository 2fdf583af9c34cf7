import ArtpipeSupport

/// Reads OAI-PMH `ListRecords` answers, defensively: a record that does not make sense is
/// reported and the rest of the page goes on. Records are EDM, LIDO or `oai_dc`
/// (``OAIRecordReaders``).
struct OAIResponseParser: Sendable {
    let readers: OAIRecordReaders

    /// - Parameter language: the language asked for (`en`); titles and names fall back deterministically.
    init(language: String) {
        readers = OAIRecordReaders(language: language)
    }
    /// The page, or the OAI error the server answered with. An answer that is not well-formed
    /// is read record by record (``OAIRecordSpans``) when its envelope is: a record that does
    /// not parse is unreadable, with its bytes, and the others are read.
    func parse(_ bytes: [UInt8]) throws -> OAIListRecords {
        do {
            return try parseWhole(bytes)
        } catch let error as UnrecognisedAnswerError {
            guard let spans = OAIRecordSpans(bytes),
                var page = try? parseWhole(Array(spans.head) + Array(spans.tail))
            else { throw error }
            for record in spans.records {
                let document = spans.document(record, of: bytes)
                let one: OAIListRecords
                do {
                    // The envelope around it parsed: only the record's own bytes can fail.
                    one = try listRecords(in: try Self.envelope(root: try XMLTree.parse(document), body: document))
                } catch {
                    let start = String(decoding: bytes[record].prefix(160), as: UTF8.self)
                        .replacingOccurrences(of: "\n", with: " ")
                    page.unreadable.append(
                        .init(
                            identifier: OAIRecordSpans.identifier(in: bytes[record]),
                            reason: "the record is not XML artpipe reads: \(error); the record starts: \(start)",
                            bytes: Array(bytes[record])))
                    continue
                }
                page.records += one.records
                page.unreadable += one.unreadable
            }
            return page
        }
    }

    private func parseWhole(_ bytes: [UInt8]) throws -> OAIListRecords {
        try listRecords(in: Self.envelope(bytes))
    }

    private func listRecords(in envelope: (root: XMLTree, responseDate: String?)) throws -> OAIListRecords {
        let (root, responseDate) = envelope
        if let error = root.child(OAINamespace.oai, "error") {
            let code = error.attribute("code") ?? "unknown"
            // Nothing changed in the window: an empty list, not a failure.
            if code == "noRecordsMatch" {
                return OAIListRecords(records: [], responseDate: responseDate, unreadable: [])
            }
            throw OAIError(code: code, message: error.text)
        }
        guard let list = root.child(OAINamespace.oai, "ListRecords") else {
            throw SourceFormatError("the OAI-PMH answer has no ListRecords")
        }
        var page = OAIListRecords(records: [], responseDate: responseDate, unreadable: [])
        for element in list.children(OAINamespace.oai, "record") {
            switch record(element) {
            case .success(let record): page.records.append(record)
            case .failure(let unreadable): page.unreadable.append(unreadable)
            }
        }
        if let token = list.child(OAINamespace.oai, "resumptionToken") {
            page.resumptionToken = token.text.isEmpty ? nil : token.text
            page.completeListSize = token.attribute("completeListSize").flatMap { Int($0) }
        }
        return page
    }

    /// The `OAI-PMH` root of an answer and its `responseDate`; a body that is not one is the
    /// server's trouble for the moment (an HTML page, a cut) or poison (other XML).
    static func envelope(_ bytes: [UInt8]) throws -> (root: XMLTree, responseDate: String?) {
        let root: XMLTree
        do {
            root = try XMLTree.parse(bytes)
        } catch let error as XMLTreeError {
            // Cut short or not XML at all: the server's trouble, worth asking again.
            throw UnrecognisedAnswerError("the OAI-PMH answer is \(error.description)", body: bytes)
        }
        return try envelope(root: root, body: bytes)
    }

    /// ``envelope(_:)`` of a document already parsed.
    static func envelope(root: XMLTree, body bytes: [UInt8]) throws -> (root: XMLTree, responseDate: String?) {
        if root.name.lowercased() == "html" {
            throw UnrecognisedAnswerError("the OAI-PMH endpoint answered with a web page", body: bytes)
        }
        guard root.namespace == OAINamespace.oai, root.name == "OAI-PMH" else {
            throw SourceFormatError("not an OAI-PMH answer (root element \(root.name))")
        }
        return (root, root.child(OAINamespace.oai, "responseDate")?.text)
    }

    private func record(_ element: XMLTree) -> Result<OAIRecord, OAIListRecords.Unreadable> {
        guard let header = element.child(OAINamespace.oai, "header"),
            let identifier = header.child(OAINamespace.oai, "identifier")?.text, !identifier.isEmpty
        else {
            return .failure(.init(identifier: "", reason: "record without a header identifier"))
        }
        guard let datestamp = header.child(OAINamespace.oai, "datestamp")?.text, !datestamp.isEmpty else {
            return .failure(.init(identifier: identifier, reason: "record without a datestamp"))
        }
        if header.attribute("status") == "deleted" {
            return .success(OAIRecord(identifier: identifier, datestamp: datestamp, deleted: true))
        }
        guard let metadata = element.child(OAINamespace.oai, "metadata")?.children.first else {
            return .failure(.init(identifier: identifier, reason: "record without metadata"))
        }
        let record: OAIRecord
        do {
            record = try readers.read(
                metadata, header: OAIRecord(identifier: identifier, datestamp: datestamp, deleted: false))
        } catch let unreadable as OAIRecordUnreadable {
            return .failure(.init(identifier: identifier, reason: unreadable.reason))
        } catch {
            return .failure(.init(identifier: identifier, reason: "\(error)"))
        }
        return .success(record)
    }
}
