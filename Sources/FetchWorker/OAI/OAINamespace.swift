/// The XML namespaces of OAI-PMH and of the metadata formats it carries. Elements are matched
/// by namespace and local name, so whatever prefixes a server chooses, they parse the same.
enum OAINamespace {
    static let oai = "http://www.openarchives.org/OAI/2.0/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let dcterms = "http://purl.org/dc/terms/"
    static let edm = "http://www.europeana.eu/schemas/edm/"
    static let ore = "http://www.openarchives.org/ore/terms/"
    static let skos = "http://www.w3.org/2004/02/skos/core#"
    static let ebucore = "http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#"
    static let svcs = "http://rdfs.org/sioc/services#"
    static let lido = "http://www.lido-schema.org"
    static let oaiDC = "http://www.openarchives.org/OAI/2.0/oai_dc/"
}
