import Foundation

/// The sample collection as the Search API and Linked Art describe it: search pages of object
/// ids, objects, agents, visual items and digital objects with a IIIF image URL. Only the
/// fields artpipe reads, shaped like the museum's documents.
struct LinkedArtDocuments {
    static let idHost = "https://id.rijksmuseum.nl/sample"
    static let accessionNumber = "http://vocab.getty.edu/aat/300312355"
    static let preferredName = "http://vocab.getty.edu/aat/300404670"
    static let primaryProduction = "http://vocab.getty.edu/aat/300404450"
    static let publisherPart = "http://vocab.getty.edu/aat/300379012"
    /// The Search API's parameters; any other is answered 400, as the real one does.
    static let searchParameters: Set<String> = [
        "creator", "title", "description", "type", "technique", "material", "creationDate", "imageAvailable",
        "objectNumber", "aboutActor", "memberOfSetId", "pageToken",
    ]

    /// Works whose object answers 404 (withdrawn since it was indexed for search).
    static func objectIsMissing(_ work: SampleWork) -> Bool { work.id % 29 == 11 }
    /// Works with an image whose visual item answers 404.
    static func visualItemIsMissing(_ work: SampleWork) -> Bool { work.image != nil && work.id % 31 == 13 }

    let collection: SampleCollection
    /// Makers by agent number; the empty maker has no agent.
    let agents: [String]

    init(collection: SampleCollection) {
        self.collection = collection
        agents = Array(Set(collection.works.map(\.maker).filter { !$0.isEmpty })).sorted()
    }

    /// Search page `page` (from 1): the works in id order, `pageSize` at a time.
    func searchPage(_ page: Int) -> [String: Any] {
        let size = collection.configuration.pageSize
        let works = collection.works.dropFirst((page - 1) * size).prefix(size)
        var document: [String: Any] = [
            "@context": "https://linked.art/ns/v1/search.json", "type": "OrderedCollectionPage",
            "partOf": ["type": "OrderedCollection", "totalItems": collection.works.count],
            "orderedItems": works.map { ["id": "\(Self.idHost)/object/\($0.id)", "type": "HumanMadeObject"] },
        ]
        if page * size < collection.works.count {
            document["next"] = [
                "id": "https://data.rijksmuseum.nl/search/collection?pageToken=\(page + 1)",
                "type": "OrderedCollectionPage",
            ]
        }
        return document
    }

    /// The object, in the shapes the museum's documents come in: the title's `content`
    /// sometimes an array, the maker in the primary part of a production that also names a
    /// publisher (listed first), some makers named in place, others only by their agent's id.
    func object(_ id: Int) -> [String: Any]? {
        guard let work = collection.work(id: id), !Self.objectIsMissing(work) else { return nil }
        var document: [String: Any] = [
            "@context": "https://linked.art/ns/v1/linked-art.json", "id": "\(Self.idHost)/object/\(id)",
            "type": "HumanMadeObject", "_label": work.title,
            "identified_by": [
                [
                    "type": "Identifier", "content": work.objectNumber,
                    "classified_as": [["id": Self.accessionNumber, "type": "Type"]],
                ],
                [
                    "type": "Name", "content": id % 3 == 0 ? [work.title] as Any : work.title as Any,
                    "classified_as": [["id": Self.preferredName, "type": "Type"]],
                ],
            ],
        ]
        if let agent = agents.firstIndex(of: work.maker) {
            var maker: [String: Any] = ["id": "\(Self.idHost)/agent/\(agent)", "type": "Person"]
            if agent % 2 == 0 {
                maker["identified_by"] = [
                    [
                        "type": "Name", "content": work.maker,
                        "classified_as": [["id": Self.preferredName, "type": "Type"]],
                    ]
                ]
            }
            let publisher: [String: Any] = [
                "type": "Production", "classified_as": [["id": Self.publisherPart, "type": "Type"]],
                "carried_out_by": [["id": "\(Self.idHost)/agent/press", "type": "Group", "_label": "Sample Press"]],
            ]
            let primary: [String: Any] = [
                "type": "Production", "classified_as": [["id": Self.primaryProduction, "type": "Type"]],
                "assigned_by": [
                    ["type": "AttributeAssignment", "assigned_property": "carried_out_by", "assigned": [maker]]
                ],
            ]
            document["produced_by"] = ["type": "Production", "part": [publisher, primary]]
        }
        if work.image != nil {
            document["shows"] = [["id": "\(Self.idHost)/visual/\(id)", "type": "VisualItem"]]
        }
        return document
    }

    /// The object as the data host describes it without a Linked Art profile: Schema.org.
    func schemaOrgObject(_ id: Int) -> [String: Any]? {
        guard let work = collection.work(id: id), !Self.objectIsMissing(work) else { return nil }
        return ["@context": "https://schema.org/", "@type": "VisualArtwork", "name": work.title]
    }

    func agent(_ number: Int) -> [String: Any]? {
        guard agents.indices.contains(number) else { return nil }
        return [
            "id": "\(Self.idHost)/agent/\(number)", "type": "Person", "_label": agents[number],
            "identified_by": [
                [
                    "type": "Name", "content": agents[number],
                    "classified_as": [["id": Self.preferredName, "type": "Type"]],
                ]
            ],
        ]
    }

    func visualItem(_ id: Int) -> [String: Any]? {
        guard let work = collection.work(id: id), work.image != nil, !Self.visualItemIsMissing(work) else { return nil }
        return [
            "id": "\(Self.idHost)/visual/\(id)", "type": "VisualItem",
            "digitally_shown_by": [["id": "\(Self.idHost)/digital/\(id)", "type": "DigitalObject"]],
        ]
    }

    /// The digital object, whose access point is a IIIF image URL on `imageBase`.
    func digitalObject(_ id: Int, imageBase: String) -> [String: Any]? {
        guard collection.work(id: id)?.image != nil else { return nil }
        return [
            "id": "\(Self.idHost)/digital/\(id)", "type": "DigitalObject",
            "access_point": [["id": "\(imageBase)/iiif/\(id)/full/max/0/default.jpg", "type": "DigitalObject"]],
        ]
    }
}

extension SampleCollection {
    /// Object numbers of the works the Linked Art stand-in cannot describe (their object or
    /// visual item answers 404): a Search API harvest leaves them out, with a reason.
    package var linkedArtUnreadable: Set<String> {
        Set(
            works.filter { LinkedArtDocuments.objectIsMissing($0) || LinkedArtDocuments.visualItemIsMissing($0) }
                .map(\.objectNumber))
    }
}
