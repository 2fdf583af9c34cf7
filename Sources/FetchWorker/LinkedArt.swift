import Foundation

/// The parts of Linked Art JSON-LD that artpipe reads. Every field may be missing.
/// Decode with ``decoder``: the JSON's keys are snake_case.
enum LinkedArt {
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// Getty AAT and Rijksmuseum terms the resolver looks for.
    enum Term {
        static let accessionNumber = "http://vocab.getty.edu/aat/300312355"
        static let objectNumber = "https://id.rijksmuseum.nl/22015218"
        static let preferredName = "http://vocab.getty.edu/aat/300404670"
        static let english = "http://vocab.getty.edu/aat/300388277"
    }

    /// A reference: `{"id": …, "type": …}`, or just the id as a string.
    struct Reference: Decodable {
        let id: String?
        let type: String?

        init(from decoder: any Decoder) throws {
            if let id = try? decoder.singleValueContainer().decode(String.self) {
                self.id = id
                self.type = nil
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(String.self, forKey: .id)
            type = try container.decodeIfPresent(String.self, forKey: .type)
        }

        private enum CodingKeys: String, CodingKey { case id, type }
    }

    struct Name: Decodable {
        let type: String?
        let content: String?
        let classifiedAs: [Reference]?
        let language: [Reference]?

        func isClassified(as term: String) -> Bool { classifiedAs?.contains { $0.id == term } ?? false }
    }

    struct Assignment: Decodable {
        let assigned: [Reference]?
        let assignedProperty: String?
    }

    struct Production: Decodable {
        let carriedOutBy: [Reference]?
        let assignedBy: [Assignment]?
        let part: [Production]?

        /// Agents who carried out the production, in document order.
        var agents: [String] {
            let direct = (carriedOutBy ?? []).compactMap(\.id)
            let attributed = (assignedBy ?? []).filter { $0.assignedProperty == "carried_out_by" }
                .flatMap { $0.assigned ?? [] }.compactMap(\.id)
            return direct + attributed + (part ?? []).flatMap(\.agents)
        }
    }

    struct HumanMadeObject: Decodable {
        let id: String?
        let identifiedBy: [Name]?
        let producedBy: Production?
        let shows: [Reference]?

        var objectNumber: String? {
            identifiedBy?.first {
                $0.type == "Identifier"
                    && ($0.isClassified(as: Term.accessionNumber) || $0.isClassified(as: Term.objectNumber))
            }?.content
        }

        var title: String? { Self.preferredName(identifiedBy ?? []) }

        /// The preferred name, in English when there is one; otherwise the first name.
        static func preferredName(_ names: [Name]) -> String? {
            let candidates = names.filter { $0.type == "Name" && !($0.content ?? "").isEmpty }
            let preferred = candidates.filter { $0.isClassified(as: Term.preferredName) }
            let english = preferred.first { $0.language?.contains { $0.id == Term.english } ?? false }
            return (english ?? preferred.first ?? candidates.first)?.content
        }
    }

    struct Agent: Decodable {
        let identifiedBy: [Name]?
        let label: String?

        var name: String? { HumanMadeObject.preferredName(identifiedBy ?? []) ?? label }

        private enum CodingKeys: String, CodingKey {
            case identifiedBy
            case label = "_label"
        }
    }

    struct VisualItem: Decodable {
        let digitallyShownBy: [Reference]?
    }

    struct DigitalObject: Decodable {
        let accessPoint: [Reference]?
    }

    /// A Linked Art Search `OrderedCollectionPage`.
    struct SearchPage: Decodable {
        struct Collection: Decodable { let totalItems: Int? }
        let partOf: Collection?
        let orderedItems: [Reference]
        let next: Reference?
    }
}
