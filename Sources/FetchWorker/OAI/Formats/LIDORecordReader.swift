import ArtpipeSupport

/// Reads LIDO, the museums' own format (one `lido:lido` per record).
///
/// - Object number: the first `lido:workID` of the repository sets (the inventory number),
///   else `lido:lidoRecID`, else the record's OAI identifier.
/// - Title: a `lido:titleSet`'s `lido:appellationValue`, the one marked preferred first, then by
///   language as every format chooses; languages are inherited (`descriptiveMetadata`'s `xml:lang`).
/// - Artist: the first actor of the production event (type `lido00007`, or a type term such as
///   "Production", "Creation", "Herstellung"; else the first event that has an actor), its
///   preferred `lido:appellationValue`, else one by language, else `lido:displayActorInRole`.
/// - Image: of the resource sets in `lido:sortorder`, the first with an http(s) link; within it
///   the representation with the longest measured side, passing over thumbnails and previews when
///   another is offered.
struct LIDORecordReader: Sendable {
    var text: OAITextChoice

    /// Event type terms that say "made this", in the languages LIDO providers write them.
    static let productionTerms: Set<String> = [
        "production", "creation", "herstellung", "hergestellt", "vervaardiging", "fabrication", "création",
        "produzione", "producción",
    ]

    /// `header`'s record with what its metadata says.
    func read(_ lido: XMLTree, header: OAIRecord) throws -> OAIRecord {
        let descriptive = lido.child(OAINamespace.lido, "descriptiveMetadata")
        let language = descriptive?.attribute("lang") ?? ""
        let identification = descriptive?.child(OAINamespace.lido, "objectIdentificationWrap")
        guard
            let titleSets = identification?.child(OAINamespace.lido, "titleWrap")?.children(
                OAINamespace.lido, "titleSet"),
            let title = self.title(titleSets, language: language)
        else {
            throw OAIRecordUnreadable("LIDO record without a title (lido:titleWrap/lido:titleSet)")
        }
        let workIDs =
            identification?.child(OAINamespace.lido, "repositoryWrap")?.children(OAINamespace.lido, "repositorySet")
            .flatMap { $0.children(OAINamespace.lido, "workID").map(\.text) } ?? []
        let number =
            OAITextChoice.first(workIDs)
            ?? OAITextChoice.first(lido.children(OAINamespace.lido, "lidoRecID").map(\.text)) ?? header.identifier
        let events =
            descriptive?.child(OAINamespace.lido, "eventWrap")?.children(OAINamespace.lido, "eventSet")
            .compactMap { $0.child(OAINamespace.lido, "event") } ?? []
        let administrative = lido.child(OAINamespace.lido, "administrativeMetadata")
        var record = header
        (record.objectNumber, record.title, record.creator, record.imageURL) =
            (number, title, creator(events, language: language) ?? "", administrative.flatMap(Self.image))
        return record
    }

    private func title(_ sets: [XMLTree], language: String) -> String? {
        let values = sets.flatMap { set in
            set.children(OAINamespace.lido, "appellationValue").map { (value: $0, set: set) }
        }
        if let preferred = values.first(where: { Self.isPreferred($0.value) || Self.isPreferred($0.set) }),
            let title = OAITextChoice.first([preferred.value.text])
        {
            return title
        }
        return text.pick(values.map { ($0.value.attribute("lang") ?? language, $0.value.text) })
    }

    private func creator(_ events: [XMLTree], language: String) -> String? {
        let withActors = events.filter { !$0.children(OAINamespace.lido, "eventActor").isEmpty }
        let production = withActors.first(where: Self.isProduction) ?? withActors.first
        guard let production else { return nil }
        for eventActor in production.children(OAINamespace.lido, "eventActor") {
            let actor = eventActor.child(OAINamespace.lido, "actorInRole")?.child(OAINamespace.lido, "actor")
            let names =
                actor?.children(OAINamespace.lido, "nameActorSet")
                .flatMap { $0.children(OAINamespace.lido, "appellationValue") } ?? []
            if let preferred = names.first(where: Self.isPreferred), let name = OAITextChoice.first([preferred.text]) {
                return name
            }
            if let name = text.pick(names.map { ($0.attribute("lang") ?? language, $0.text) }) { return name }
            if let shown = OAITextChoice.first(eventActor.children(OAINamespace.lido, "displayActorInRole").map(\.text))
            {
                return shown
            }
        }
        return nil
    }

    /// `lido:pref="preferred"`.
    private static func isPreferred(_ element: XMLTree) -> Bool {
        element.attribute("pref")?.lowercased() == "preferred"
    }

    private static func isProduction(_ event: XMLTree) -> Bool {
        guard let type = event.child(OAINamespace.lido, "eventType") else { return false }
        if type.children(OAINamespace.lido, "conceptID").contains(where: { $0.text.hasSuffix("/lido00007") }) {
            return true
        }
        return type.children(OAINamespace.lido, "term").contains {
            productionTerms.contains(OAITextChoice.collapsed($0.text).lowercased())
        }
    }

    private static func image(_ administrative: XMLTree) -> String? {
        let sets =
            administrative.child(OAINamespace.lido, "resourceWrap")?.children(OAINamespace.lido, "resourceSet") ?? []
        let ordered = sets.enumerated().sorted { left, right in
            let order = { (set: XMLTree) in set.attribute("sortorder").flatMap { Int($0) } ?? Int.max }
            return (order(left.element), left.offset) < (order(right.element), right.offset)
        }
        for (_, set) in ordered {
            let representations = set.children(OAINamespace.lido, "resourceRepresentation").compactMap {
                representation -> (url: String, pixels: Int?, isPreview: Bool)? in
                guard let link = representation.child(OAINamespace.lido, "linkResource"),
                    let url = OAITextChoice.first([link.text]), url.hasPrefix("http://") || url.hasPrefix("https://"),
                    link.attribute("formatResource").map({ $0.lowercased().hasPrefix("image/") }) ?? true
                else { return nil }
                let type = representation.attribute("type")?.lowercased() ?? ""
                return (url, pixels(representation), type.contains("thumb") || type.contains("preview"))
            }
            // Measured and longest first, then full representations, then the record's order;
            // sides are only compared, so any positive Int a record writes ranks.
            let best = representations.indices.min { a, b in
                let (left, right) = (representations[a], representations[b])
                if (left.pixels == nil) != (right.pixels == nil) { return left.pixels != nil }
                if let one = left.pixels, let other = right.pixels, one != other { return one > other }
                if left.isPreview != right.isPreview { return !left.isPreview }
                return a < b
            }.map { representations[$0] }
            if let best { return best.url }
        }
        return nil
    }

    /// The longest side the representation measures (`lido:resourceMeasurementsSet` width or
    /// height); a side that is not a positive whole number measures nothing.
    private static func pixels(_ representation: XMLTree) -> Int? {
        representation.children(OAINamespace.lido, "resourceMeasurementsSet").compactMap { set -> Int? in
            guard let type = set.child(OAINamespace.lido, "measurementType")?.text.lowercased(),
                type == "width" || type == "height"
            else { return nil }
            return set.child(OAINamespace.lido, "measurementValue").flatMap { Int(OAITextChoice.collapsed($0.text)) }
                .flatMap { $0 > 0 ? $0 : nil }
        }.max()
    }
}
