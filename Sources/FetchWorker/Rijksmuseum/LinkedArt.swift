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
        /// The production part of the work's own maker, as opposed to a publisher's or a printer's.
        static let primaryProduction = "http://vocab.getty.edu/aat/300404450"
    }

    /// Text that comes as a string or, in some documents, as an array of strings: the first
    /// non-empty one.
    struct LenientText: Decodable {
        let value: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                value = text
            } else if let texts = try? container.decode([String].self) {
                value = texts.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            } else {
                value = nil
            }
        }
    }

    /// A `notation` entry: `{"@language": "en", "@value": …}`, or a plain string.
    struct Notation: Decodable {
        let language: String?
        let value: String?

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                language = nil
                value = text
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            language = try? container.decodeIfPresent(String.self, forKey: .language)
            value = try? container.decodeIfPresent(String.self, forKey: .value)
        }

        private enum CodingKeys: String, CodingKey {
            case language = "@language"
            case value = "@value"
        }

        /// The English value, else the first.
        static func preferred(_ notations: [Notation]) -> String? {
            let usable = notations.filter { !($0.value ?? "").isEmpty }
            return (usable.first { $0.language == "en" } ?? usable.first)?.value
        }
    }

    /// An agent as a production names it: its id, and sometimes its name written in place.
    struct AgentReference: Decodable {
        let id: String?
        let label: String?
        let notation: [Notation]?
        let identifiedBy: [Name]?

        init(from decoder: any Decoder) throws {
            if let id = try? decoder.singleValueContainer().decode(String.self) {
                self.id = id
                label = nil
                notation = nil
                identifiedBy = nil
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try? container.decodeIfPresent(String.self, forKey: .id)
            label = try? container.decodeIfPresent(String.self, forKey: .label)
            // One entry is sometimes given alone, not in an array.
            notation =
                (try? container.decodeIfPresent([Notation].self, forKey: .notation))
                ?? (try? container.decodeIfPresent(Notation.self, forKey: .notation)).flatMap { $0.map { [$0] } }
            identifiedBy = try? container.decodeIfPresent([Name].self, forKey: .identifiedBy)
        }

        private enum CodingKeys: String, CodingKey {
            case id, notation, identifiedBy
            case label = "_label"
        }

        /// The name given in place, so the agent need not be fetched.
        var inlineName: String? {
            let name =
                HumanMadeObject.preferredName(identifiedBy ?? []) ?? Notation.preferred(notation ?? []) ?? label
            return name.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        }
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
        let text: LenientText?
        let classifiedAs: [Reference]?
        let language: [Reference]?

        var content: String? { text?.value }

        private enum CodingKeys: String, CodingKey {
            // The decoder converts snake_case keys first, so these are camelCase.
            case type, classifiedAs, language
            case text = "content"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try? container.decodeIfPresent(String.self, forKey: .type)
            text = try? container.decodeIfPresent(LenientText.self, forKey: .text)
            classifiedAs = try? container.decodeIfPresent([Reference].self, forKey: .classifiedAs)
            language = try? container.decodeIfPresent([Reference].self, forKey: .language)
        }

        func isClassified(as term: String) -> Bool { classifiedAs?.contains { $0.id == term } ?? false }
    }

    struct Assignment: Decodable {
        let assigned: [AgentReference]?
        let assignedProperty: String?
    }

    struct Production: Decodable {
        let carriedOutBy: [AgentReference]?
        let assignedBy: [Assignment]?
        let classifiedAs: [Reference]?
        let part: [Production]?

        /// The agents of this production itself (not its parts), in document order.
        var ownAgents: [AgentReference] {
            let attributed = (assignedBy ?? []).filter { $0.assignedProperty == "carried_out_by" }
                .flatMap { $0.assigned ?? [] }
            return (carriedOutBy ?? []) + attributed
        }

        /// The maker: the primary part's agent first (the museum lists a publisher's or a
        /// printer's part too), then the production's own, then any other part's.
        var maker: AgentReference? {
            let parts = part ?? []
            let primary = parts.filter { $0.classifiedAs?.contains { $0.id == Term.primaryProduction } ?? false }
            let others = parts.filter { !($0.classifiedAs?.contains { $0.id == Term.primaryProduction } ?? false) }
            return (primary.flatMap(\.ownAgents) + ownAgents + others.flatMap(\.ownAgents)).first
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

        /// The collection's `totalItems`; nil when it is missing or below zero, which no
        /// collection holds.
        var totalItems: Int? { partOf?.totalItems.flatMap { $0 >= 0 ? $0 : nil } }
    }
}
