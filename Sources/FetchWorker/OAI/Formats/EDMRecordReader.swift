import ArtpipeSupport
import Foundation

/// Reads EDM (RDF/XML) as the museum serves it and as aggregators do.
///
/// The museum's records are flat: the `edm:ProvidedCHO` holds the fields. An aggregator's
/// (Europeana's) hold them on `ore:Proxy` elements: the provider's proxy with what the
/// provider wrote, and Europeana's own (`edm:europeanaProxy` true) with its enrichments,
/// typically `dc:creator` as a reference to an `edm:Agent`. Each field is taken from the first
/// of these that has it: the object, the provider's proxies, then Europeana's, so a work is
/// grouped under the artist as its provider names it.
///
/// - Date: `dc:date`, else `dcterms:created`, written as text (a reference to a time span is
///   not a date written); its years read by ``YearText``.
/// - Landing page: the aggregation's `edm:isShownAt`.
/// - Rights: the aggregation's `edm:rights`, else the image's `edm:WebResource`'s, else the first
///   web resource's that has one.
/// - IIIF: the image's web resource's `svcs:has_service` (unless the `svcs:Service` it names
///   conforms to another API than IIIF Image) and `dcterms:isReferencedBy` where it names a
///   manifest (else any web resource's that does).
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
        let dates = descriptions.lazy.compactMap { date($0) }
        let image = resources.image
        var record = header
        (record.objectNumber, record.title, record.creator, record.imageURL) =
            (numbers.first ?? header.identifier, titles.first ?? "", creators.first ?? "", image)
        record.date = dates.first
        record.years = record.date.flatMap { YearText.years(in: $0) }
        record.landingPage = resources.landingPage
        record.rights = resources.rights(image: image)
        record.iiifImageService = resources.imageService(image: image)
        record.iiifManifest = resources.manifest(image: image)
        return record
    }

    /// The object number: the first `dc:identifier` that is not a URL (the museum also lists handles).
    private static func objectNumber(_ description: XMLTree) -> String? {
        let identifiers = description.children(OAINamespace.dc, "identifier").map { OAITextChoice.collapsed($0.text) }
        return identifiers.first { !$0.isEmpty && !$0.hasPrefix("http://") && !$0.hasPrefix("https://") }
    }

    /// The first `dc:creator` that names someone: an `edm:Agent` of the record (by reference or
    /// nested), its `skos:prefLabel` in the language asked for; or a literal name as written,
    /// without a role written after it (``OAICreatorName``).
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
            if let name = OAITextChoice.first([creator.text]) { return OAICreatorName.withoutRole(name) }
        }
        return nil
    }

    /// `dc:date`, else `dcterms:created`, in the language asked for.
    private func date(_ description: XMLTree) -> String? {
        for (namespace, name) in [(OAINamespace.dc, "date"), (OAINamespace.dcterms, "created")] {
            let written: [(language: String, text: String)] = description.children(namespace, name).map {
                ($0.attribute("lang") ?? "", $0.text)
            }
            if let date = text.pick(written) { return date }
        }
        return nil
    }
}

/// The resources of one record's `rdf:RDF`: its aggregation, its object, its proxies, its
/// agents, web resources and services.
private struct EDMResources {
    let aggregation: XMLTree?
    /// The object, then the provider's proxies, then Europeana's.
    let descriptions: [XMLTree]
    /// By `rdf:about`.
    let agents: [String: XMLTree]
    /// In the record's order.
    let webResources: [XMLTree]
    /// Each web resource's media type, where the record says (`ebucore:hasMimeType`).
    let mediaTypes: [String: String]
    /// The `svcs:Service` elements, by `rdf:about`.
    let services: [String: XMLTree]

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
        agents = Self.byAbout(rdf.children(OAINamespace.edm, "Agent"))
        webResources = rdf.children(OAINamespace.edm, "WebResource")
        var mediaTypes: [String: String] = [:]
        for resource in webResources {
            if let about = resource.attribute("about"),
                let type = resource.child(OAINamespace.ebucore, "hasMimeType")?.text, !type.isEmpty
            {
                mediaTypes[about] = type.lowercased()
            }
        }
        self.mediaTypes = mediaTypes
        services = Self.byAbout(rdf.children(OAINamespace.svcs, "Service"))
    }

    /// The first of `elements` for each `rdf:about`.
    private static func byAbout(_ elements: [XMLTree]) -> [String: XMLTree] {
        var found: [String: XMLTree] = [:]
        for element in elements {
            if let about = element.attribute("about"), found[about] == nil { found[about] = element }
        }
        return found
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

    /// `edm:isShownAt`.
    var landingPage: String? {
        aggregation?.children(OAINamespace.edm, "isShownAt").lazy.compactMap(Self.link).first
    }

    /// The aggregation's `edm:rights`, else the image's web resource's, else the first web resource's.
    func rights(image: String?) -> String? {
        let holders = [aggregation, webResource(image)].compactMap { $0 } + webResources
        return holders.lazy.compactMap { $0.children(OAINamespace.edm, "rights").lazy.compactMap(Self.link).first }
            .first
    }

    /// The image's web resource's `svcs:has_service`, unless the service it names says it conforms
    /// to another API than IIIF Image.
    func imageService(image: String?) -> String? {
        guard let resource = webResource(image) else { return nil }
        return resource.children(OAINamespace.svcs, "has_service").lazy.compactMap(Self.link).first { service in
            let conforms = services[service]?.children(OAINamespace.dcterms, "conformsTo").compactMap(Self.link) ?? []
            return conforms.isEmpty || conforms.contains(where: Self.isIIIFImageAPI)
        }
    }

    /// The IIIF Image API's URI, of any version (`http://iiif.io/api/image`, `…/image/3/level1.json`).
    private static func isIIIFImageAPI(_ uri: String) -> Bool {
        uri.hasPrefix("http://iiif.io/api/image") || uri.hasPrefix("https://iiif.io/api/image")
    }

    /// A web resource's `dcterms:isReferencedBy` that names a manifest: the image's first.
    func manifest(image: String?) -> String? {
        let resources = [webResource(image)].compactMap { $0 } + webResources
        return resources.lazy.compactMap { resource in
            resource.children(OAINamespace.dcterms, "isReferencedBy").lazy.compactMap(Self.link)
                .first { $0.lowercased().contains("manifest") }
        }.first
    }

    /// The `edm:WebResource` about `url`.
    private func webResource(_ url: String?) -> XMLTree? {
        guard let url else { return nil }
        return webResources.first { $0.attribute("about") == url }
    }

    /// A reference comes as `rdf:resource`, as a nested resource (`edm:WebResource`,
    /// `svcs:Service`) by its `rdf:about`, or as text.
    private static func link(_ element: XMLTree) -> String? {
        if let resource = element.attribute("resource")?.trimmingCharacters(in: .whitespacesAndNewlines),
            !resource.isEmpty
        {
            return resource
        }
        if let about = element.children.lazy.compactMap({ $0.attribute("about") }).first?
            .trimmingCharacters(in: .whitespacesAndNewlines), !about.isEmpty
        {
            return about
        }
        return element.text.isEmpty ? nil : element.text
    }
}
