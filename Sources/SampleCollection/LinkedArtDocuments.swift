import Foundation

/// The sample collection as the Search API and Linked Art describe it: search pages of object
/// ids, objects, agents, visual items and digital objects with a IIIF image URL. Only the
/// fields artpipe reads, shaped like the museum's documents.
struct LinkedArtDocuments {
    static let idHost = "https://id.rijksmuseum.nl/sample"
    static let accessionNumber = "http://vocab.getty.edu/aat/300312355"
    static let preferredName = "http://vocab.getty.edu/aat/300404670"

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

    func object(_ id: Int) -> [String: Any]? {
        guard let work = collection.work(id: id) else { return nil }
        var document: [String: Any] = [
            "@context": "https://linked.art/ns/v1/linked-art.json", "id": "\(Self.idHost)/object/\(id)",
            "type": "HumanMadeObject", "_label": work.title,
            "identified_by": [
                [
                    "type": "Identifier", "content": work.objectNumber,
                    "classified_as": [["id": Self.accessionNumber, "type": "Type"]],
                ],
                [
                    "type": "Name", "content": work.title,
                    "classified_as": [["id": Self.preferredName, "type": "Type"]],
                ],
            ],
        ]
        if let agent = agents.firstIndex(of: work.maker) {
            document["produced_by"] = [
                "type": "Production", "carried_out_by": [["id": "\(Self.idHost)/agent/\(agent)", "type": "Person"]],
            ]
        }
        if work.image != nil {
            document["shows"] = [["id": "\(Self.idHost)/visual/\(id)", "type": "VisualItem"]]
        }
        return document
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
        guard collection.work(id: id)?.image != nil else { return nil }
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
