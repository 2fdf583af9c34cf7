import ArtpipeSupport

/// Reads EDM (RDF/XML) as the museum serves it and as aggregators do.
///
/// The museum's records are flat: the `edm:ProvidedCHO` holds the fields. An aggregator's
/// (Europeana's) hold them on `ore:Proxy` elements: the provider's proxy with what the
/// provider wrote, and Europeana's own (`edm:europeanaProxy` true) with its enrichments,
/// typically `dc:creator` as a reference to an `edm:Agent`. Each field is taken from the first
/// of these that has it: the object, the provider's proxies, then Europeana's, so a work is
/// grouped under the artist as its provider names it.
struct EDMRecordReader: Sendable {
    var text: OAITextChoice

    /// `header`'s record with what its metadata says.
    func read(_ rdf: XMLTree, header: OAIRecord) throws -> OAIRecord {
        let resources = EDMResources(rdf)
        let descriptions = resources.descriptions
        guard !descriptions.isEmpty else { throw OAIRecordUnreadable("record without an edm:ProvidedCHO") }
        let numbers = descriptions.lazy.compactMap(Self.objectNumber)
        let titles = descriptions.lazy.compactMap {
            text.pick($0.children(OAINamespace.dc, "title").map { ($0.attribute("lang") ?? "", $0.text) })
        }
        let creators = descriptions.lazy.compactMap { creator($0, resources) }
        var record = header
        (record.objectNumber, record.title, record.creator, record.imageURL) =
            (numbers.first ?? header.identifier, titles.first ?? "", creators.first ?? "", resources.image)
        return record
    }

    /// The object number: the first `dc:identifier` that is not a URL (the museum also lists handles).
    private static func objectNumber(_ description: XMLTree) -> String? {
        let identifiers = description.children(OAINamespace.dc, "identifier").map { OAITextChoice.collapsed($0.text) }
        return identifiers.first { !$0.isEmpty && !$0.hasPrefix("http://") && !$0.hasPrefix("https://") }
    }

    /// The first `dc:creator` that names someone: an `edm:Agent` of the record (by reference or
    /// nested), its `skos:prefLabel` in the language asked for; or a literal name as written.
    /// A reference to an agent the record does not describe names no one here.
    private func creator(_ description: XMLTree, _ resources: EDMResources) -> String? {
        for creator in description.children(OAINamespace.dc, "creator") {
            let agent =
                creator.attribute("resource").flatMap { resources.agents[$0] }
                ?? creator.child(OAINamespace.edm, "Agent")
            if let agent,
                let name = text.pick(
                    agent.children(OAINamespace.skos, "prefLabel").map { ($0.attribute("lang") ?? "", $0.text) })
            {
                return name
            }
            if let name = OAITextChoice.first([creator.text]) { return name }
        }
        return nil
    }
}

/// The resources of one record's `rdf:RDF`: its aggregation, its object, its proxies, its
/// agents and web resources.
private struct EDMResources {
    let aggregation: XMLTree?
    /// The object, then the provider's proxies, then Europeana's.
    let descriptions: [XMLTree]
    /// By `rdf:about`.
    let agents: [String: XMLTree]
    /// Each web resource's media type, where the record says (`ebucore:hasMimeType`).
    let mediaTypes: [String: String]

    init(_ rdf: XMLTree) {
        let aggregation = rdf.child(OAINamespace.ore, "Aggregation")
        self.aggregation = aggregation
        let nested = aggregation?.child(OAINamespace.edm, "aggregatedCHO")?.child(OAINamespace.edm, "ProvidedCHO")
        let object = rdf.child(OAINamespace.edm, "ProvidedCHO") ?? nested
        let proxies = rdf.children(OAINamespace.ore, "Proxy")
        let isEuropeanas = { (proxy: XMLTree) in
            proxy.child(OAINamespace.edm, "europeanaProxy")?.text.lowercased() == "true"
        }
        descriptions = [object].compactMap { $0 } + proxies.filter { !isEuropeanas($0) } + proxies.filter(isEuropeanas)
        var agents: [String: XMLTree] = [:]
        for agent in rdf.children(OAINamespace.edm, "Agent") {
            if let about = agent.attribute("about"), agents[about] == nil { agents[about] = agent }
        }
        self.agents = agents
        var mediaTypes: [String: String] = [:]
        for resource in rdf.children(OAINamespace.edm, "WebResource") {
            if let about = resource.attribute("about"),
                let type = resource.child(OAINamespace.ebucore, "hasMimeType")?.text, !type.isEmpty
            {
                mediaTypes[about] = type.lowercased()
            }
        }
        self.mediaTypes = mediaTypes
    }

    /// The image: `edm:isShownBy`, else `edm:object`, else the first `edm:hasView`; one the record
    /// itself says is not an image (a PDF, a web page) is passed over.
    var image: String? {
        guard let aggregation else { return nil }
        let candidates =
            aggregation.children(OAINamespace.edm, "isShownBy") + aggregation.children(OAINamespace.edm, "object")
            + aggregation.children(OAINamespace.edm, "hasView")
        return candidates.lazy.compactMap(Self.link).first { url in
            mediaTypes[url].map { $0.hasPrefix("image/") } ?? true
        }
    }

    /// A reference comes as `rdf:resource`, as a nested `edm:WebResource`, or as text.
    private static func link(_ element: XMLTree) -> String? {
        if let resource = element.attribute("resource"), !resource.isEmpty { return resource }
        if let about = element.child(OAINamespace.edm, "WebResource")?.attribute("about"), !about.isEmpty {
            return about
        }
        return element.text.isEmpty ? nil : element.text
    }
}
