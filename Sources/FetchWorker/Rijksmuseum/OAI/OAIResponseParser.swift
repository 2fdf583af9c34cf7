import ArtpipeSupport

/// Reads OAI-PMH `ListRecords` answers whose records are EDM (RDF/XML), defensively: a record
/// that does not make sense is reported and the rest of the page goes on.
struct OAIResponseParser: Sendable {
    /// The language asked for (`en`); titles and names fall back deterministically.
    var language: String

    /// The page, or the OAI error the server answered with.
    func parse(_ bytes: [UInt8]) throws -> OAIListRecords {
        let (root, responseDate) = try Self.envelope(bytes)
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
        guard let rdf = element.child(OAINamespace.oai, "metadata")?.child(OAINamespace.rdf, "RDF") else {
            return .failure(.init(identifier: identifier, reason: "record without EDM metadata"))
        }
        let resources = RDFResources(rdf)
        guard let object = resources.providedObject else {
            return .failure(.init(identifier: identifier, reason: "record without an edm:ProvidedCHO"))
        }
        guard let objectNumber = Self.objectNumber(object) else {
            return .failure(.init(identifier: identifier, reason: "record without an object number (dc:identifier)"))
        }
        var record = OAIRecord(identifier: identifier, datestamp: datestamp, deleted: false)
        record.objectNumber = objectNumber
        record.title = pick(object.children(OAINamespace.dc, "title")) ?? ""
        record.creator = creator(object, resources) ?? ""
        let aggregation = resources.aggregation
        record.imageURL =
            aggregation.flatMap { Self.shownBy($0) ?? $0.child(OAINamespace.edm, "object")?.attribute("resource") }
        record.rights = aggregation?.child(OAINamespace.edm, "rights")?.attribute("resource")
        return .success(record)
    }

    /// The object number: the first `dc:identifier` that is not a URL (the museum also lists handles).
    private static func objectNumber(_ object: XMLTree) -> String? {
        let identifiers = object.children(OAINamespace.dc, "identifier").map(\.text).filter { !$0.isEmpty }
        return identifiers.first { !$0.hasPrefix("http://") && !$0.hasPrefix("https://") }
    }

    /// `edm:isShownBy` comes as a reference (`rdf:resource`) or as a nested `edm:WebResource`.
    private static func shownBy(_ aggregation: XMLTree) -> String? {
        guard let shownBy = aggregation.child(OAINamespace.edm, "isShownBy") else { return nil }
        if let resource = shownBy.attribute("resource"), !resource.isEmpty { return resource }
        if let about = shownBy.child(OAINamespace.edm, "WebResource")?.attribute("about"), !about.isEmpty {
            return about
        }
        return shownBy.text.isEmpty ? nil : shownBy.text
    }

    /// The first `dc:creator`: an `edm:Agent` of the record (by reference or nested), its
    /// `skos:prefLabel` in the language asked for; or a literal name.
    private func creator(_ object: XMLTree, _ resources: RDFResources) -> String? {
        for creator in object.children(OAINamespace.dc, "creator") {
            let agent =
                creator.attribute("resource").flatMap { resources.agents[$0] }
                ?? creator.child(OAINamespace.edm, "Agent")
            if let agent, let name = pick(agent.children(OAINamespace.skos, "prefLabel")) { return name }
            if !creator.text.isEmpty { return creator.text }
        }
        return nil
    }

    /// The text in the language asked for; else one without a language; else the smallest
    /// language code's, so the same record always gives the same text.
    func pick(_ elements: [XMLTree]) -> String? {
        let texts = elements.filter { !$0.text.isEmpty }.map { ($0.attribute("lang") ?? "", $0.text) }
        if let wanted = texts.first(where: { $0.0 == language }) { return wanted.1 }
        if let untagged = texts.first(where: { $0.0.isEmpty }) { return untagged.1 }
        return texts.min { ($0.0, $0.1) < ($1.0, $1.1) }?.1
    }
}

/// The resources of one record's `rdf:RDF`: its aggregation, its object and its agents.
private struct RDFResources {
    let aggregation: XMLTree?
    let providedObject: XMLTree?
    /// By `rdf:about`.
    let agents: [String: XMLTree]

    init(_ rdf: XMLTree) {
        let aggregation = rdf.child(OAINamespace.ore, "Aggregation")
        self.aggregation = aggregation
        let nested = aggregation?.child(OAINamespace.edm, "aggregatedCHO")?.child(OAINamespace.edm, "ProvidedCHO")
        providedObject = rdf.child(OAINamespace.edm, "ProvidedCHO") ?? nested
        var agents: [String: XMLTree] = [:]
        for agent in rdf.children(OAINamespace.edm, "Agent") {
            if let about = agent.attribute("about"), agents[about] == nil { agents[about] = agent }
        }
        self.agents = agents
    }
}
