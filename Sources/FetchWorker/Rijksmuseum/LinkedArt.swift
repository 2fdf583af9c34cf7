import Foundation
import PipelineContract

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
        /// A copyright or licensing statement (`referred_to_by`).
        static let rightsStatement = "http://vocab.getty.edu/aat/300435434"
        /// Web pages: a digital object that is the work's page on the museum's website.
        static let webPage = "http://vocab.getty.edu/aat/300264578"
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
        let timespan: TimeSpan?

        private enum CodingKeys: String, CodingKey { case carriedOutBy, assignedBy, classifiedAs, part, timespan }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            carriedOutBy = try container.decodeIfPresent([AgentReference].self, forKey: .carriedOutBy)
            assignedBy = try container.decodeIfPresent([Assignment].self, forKey: .assignedBy)
            classifiedAs = try container.decodeIfPresent([Reference].self, forKey: .classifiedAs)
            part = try container.decodeIfPresent([Production].self, forKey: .part)
            // Read leniently: a time span of another shape leaves the work without a date, never unread.
            timespan = try? container.decodeIfPresent(TimeSpan.self, forKey: .timespan)
        }

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
        /// Texts about the object: its web page and its IIIF manifest among them.
        let subjectOf: [LinguisticObject]?
        let subjectTo: [Right]?
        let referredToBy: [Statement]?

        private enum CodingKeys: String, CodingKey {
            case id, identifiedBy, producedBy, shows, subjectOf, subjectTo, referredToBy
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(String.self, forKey: .id)
            identifiedBy = try container.decodeIfPresent([Name].self, forKey: .identifiedBy)
            producedBy = try container.decodeIfPresent(Production.self, forKey: .producedBy)
            shows = try container.decodeIfPresent([Reference].self, forKey: .shows)
            // What only describes the work further is read leniently: another shape leaves it out.
            subjectOf = try? container.decodeIfPresent([LinguisticObject].self, forKey: .subjectOf)
            subjectTo = try? container.decodeIfPresent([Right].self, forKey: .subjectTo)
            referredToBy = try? container.decodeIfPresent([Statement].self, forKey: .referredToBy)
        }

        /// The object's page on the museum's website: the access point of a digital object that
        /// carries a text about it and is a web page (AAT 300264578, or `format` HTML).
        var landingPage: String? {
            let page = carriers.first { carrier in
                carrier.isClassified(as: Term.webPage) || carrier.format?.lowercased().hasPrefix("text/html") == true
            }
            return page?.location
        }

        /// The object's IIIF Presentation manifest: the access point of a digital object that
        /// conforms to the IIIF Presentation API.
        var manifest: String? {
            carriers.first(where: \.conformsToIIIFPresentation)?.location
        }

        /// The object's own rights: a `subject_to` right, else a rights statement among the texts
        /// that refer to it (AAT 300435434).
        var rights: String? {
            let statement = (referredToBy ?? []).first { $0.isClassified(as: Term.rightsStatement) && $0.text != nil }
            return (subjectTo ?? []).lazy.compactMap(\.statement).first ?? statement?.text
        }

        /// The digital objects with an access point that carry texts about the object, in document order.
        private var carriers: [DigitalObject] {
            (subjectOf ?? []).flatMap { $0.digitallyCarriedBy ?? [] }.filter { $0.location != nil }
        }

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
        /// The image's rights.
        let subjectTo: [Right]?

        private enum CodingKeys: String, CodingKey { case digitallyShownBy, subjectTo }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            digitallyShownBy = try container.decodeIfPresent([Reference].self, forKey: .digitallyShownBy)
            subjectTo = try? container.decodeIfPresent([Right].self, forKey: .subjectTo)
        }

        var rights: String? { (subjectTo ?? []).lazy.compactMap(\.statement).first }
    }

    struct DigitalObject: Decodable {
        let accessPoint: [Reference]?
        let format: String?
        let classifiedAs: [Reference]?
        let conformsTo: [Reference]?

        private enum CodingKeys: String, CodingKey { case accessPoint, format, classifiedAs, conformsTo }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            accessPoint = try container.decodeIfPresent([Reference].self, forKey: .accessPoint)
            format = try? container.decodeIfPresent(String.self, forKey: .format)
            classifiedAs = try? container.decodeIfPresent([Reference].self, forKey: .classifiedAs)
            conformsTo = try? container.decodeIfPresent([Reference].self, forKey: .conformsTo)
        }

        /// The first access point's URL.
        var location: String? { accessPoint?.lazy.compactMap(\.id).first { !$0.isEmpty } }

        func isClassified(as term: String) -> Bool { classifiedAs?.contains { $0.id == term } ?? false }

        /// `conforms_to` the IIIF Presentation API, or a `format` that names its context.
        var conformsToIIIFPresentation: Bool {
            let named = (conformsTo ?? []).compactMap(\.id) + [format].compactMap { $0 }
            return named.contains { $0.contains("iiif.io/api/presentation") }
        }
    }

    /// A text about the object (`subject_of`): what carries it digitally.
    struct LinguisticObject: Decodable {
        let digitallyCarriedBy: [DigitalObject]?

        private enum CodingKeys: String, CodingKey { case digitallyCarriedBy }

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: CodingKeys.self)
            digitallyCarriedBy = try? container?.decodeIfPresent([DigitalObject].self, forKey: .digitallyCarriedBy)
        }
    }

    /// A statement referring to the object (`referred_to_by`): its text and what kind it is.
    struct Statement: Decodable {
        let content: LenientText?
        let classifiedAs: [Reference]?

        private enum CodingKeys: String, CodingKey { case content, classifiedAs }

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: CodingKeys.self)
            content = try? container?.decodeIfPresent(LenientText.self, forKey: .content)
            classifiedAs = try? container?.decodeIfPresent([Reference].self, forKey: .classifiedAs)
        }

        var text: String? {
            content?.value.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        }

        func isClassified(as term: String) -> Bool { classifiedAs?.contains { $0.id == term } ?? false }
    }

    /// A `Right` (`subject_to`): the statement it is classified as (a Creative Commons or
    /// RightsStatements.org URI), and its names.
    struct Right: Decodable {
        let classifiedAs: [Reference]?
        let identifiedBy: [Name]?

        private enum CodingKeys: String, CodingKey { case classifiedAs, identifiedBy }

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: CodingKeys.self)
            classifiedAs = try? container?.decodeIfPresent([Reference].self, forKey: .classifiedAs)
            identifiedBy = try? container?.decodeIfPresent([Name].self, forKey: .identifiedBy)
        }

        /// The first http(s) URI it is classified as, else its name (English first).
        var statement: String? {
            let uris = (classifiedAs ?? []).compactMap(\.id)
            let uri = uris.first { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
            return uri ?? TimeSpan.englishName(identifiedBy ?? [])
        }
    }

    /// When something happened: the time span's name as the museum displays it, and its bounds.
    struct TimeSpan: Decodable {
        let identifiedBy: [Name]?
        let beginOfTheBegin: String?
        let endOfTheEnd: String?

        private enum CodingKeys: String, CodingKey { case identifiedBy, beginOfTheBegin, endOfTheEnd }

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: CodingKeys.self)
            identifiedBy = try? container?.decodeIfPresent([Name].self, forKey: .identifiedBy)
            beginOfTheBegin = try? container?.decodeIfPresent(String.self, forKey: .beginOfTheBegin)
            endOfTheEnd = try? container?.decodeIfPresent(String.self, forKey: .endOfTheEnd)
        }

        /// The name shown: in English when there is one, else the first.
        var displayName: String? { Self.englishName(identifiedBy ?? []) }

        /// The years from the begin of its begin to the end of its end, when both are dates;
        /// else read from its name.
        var years: YearRange? {
            if let begin = beginOfTheBegin.flatMap({ YearText.years(in: $0) }),
                let end = endOfTheEnd.flatMap({ YearText.years(in: $0) })
            {
                return YearRange(earliest: begin.earliest, latest: end.latest)
            }
            return displayName.flatMap { YearText.years(in: $0) }
        }

        /// The English name of `names`, else the first, ignoring empty ones.
        static func englishName(_ names: [Name]) -> String? {
            let candidates = names.filter { name in
                name.type == "Name" && !(name.content ?? "").trimmingCharacters(in: .whitespaces).isEmpty
            }
            let english = candidates.first { $0.language?.contains { $0.id == Term.english } ?? false }
            return (english ?? candidates.first)?.content
        }
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
