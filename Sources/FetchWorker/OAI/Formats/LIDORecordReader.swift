import ArtpipeSupport
import Foundation
import PipelineContract

/// Reads LIDO, the museums' own format (one `lido:lido` per record).
///
/// - Object number: the first `lido:workID` of the repository sets (the inventory number),
///   else `lido:lidoRecID`, else the record's OAI identifier.
/// - Title: a `lido:titleSet`'s `lido:appellationValue`, of those the record prefers
///   (``LIDOPreference``) by language as every format chooses; languages are inherited
///   (`descriptiveMetadata`'s `xml:lang`).
/// - Artist: the first actor of the production event (type `lido00007`, or a type term such as
///   "Production", "Creation", "Herstellung"; else the first event that has an actor), of its
///   preferred `lido:appellationValue`s the one by language, else `lido:displayActorInRole`.
/// - Image: of the resource sets in `lido:sortorder`, the first with an http(s) link whose
///   `lido:formatResource`, if any, says an image (`image/…`, or a bare `jpg`, `tif`…); within it
///   the representation with the longest measured side, passing over thumbnails and previews when
///   another is offered.
/// - Date: the production event's (as for the artist, or a production event without an actor)
///   `lido:displayDate` by language, else its `lido:earliestDate`–`lido:latestDate`; the years
///   from those two dates where the record gives them, else read from the date.
/// - Landing page: the first `lido:recordInfoLink` that is an http(s) URL of a page (its
///   `lido:formatResource` says HTML, or nothing).
/// - Rights: the first `lido:rightsWorkSet`'s `lido:rightsType` (a concept ID that is an http(s)
///   URI, else its term by language); without one, the image's resource set's `lido:rightsResource`,
///   else the first resource set's that has one.
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
        let sets = administrative.map(Self.resourceSets) ?? []
        let shown = sets.lazy.compactMap { set in Self.image(in: set).map { (url: $0, set: set) } }.first
        var record = header
        (record.objectNumber, record.title, record.creator, record.imageURL) =
            (number, title, creator(events, language: language) ?? "", shown?.url)
        if let production = Self.productionEvent(events) {
            (record.date, record.years) = dating(production, language: language)
        }
        if let administrative {
            record.landingPage = Self.landingPage(administrative)
            record.rights = rights(
                administrative, imageSet: shown?.set, sets: sets,
                language: administrative.attribute("lang") ?? language)
        }
        return record
    }

    private func title(_ sets: [XMLTree], language: String) -> String? {
        let values = sets.flatMap { set in
            set.children(OAINamespace.lido, "appellationValue").filter(Self.hasText).map { (value: $0, set: set) }
        }
        return text.pick(LIDOPreference.best(values).map { ($0.attribute("lang") ?? language, $0.text) })
    }

    private func creator(_ events: [XMLTree], language: String) -> String? {
        let withActors = events.filter { !$0.children(OAINamespace.lido, "eventActor").isEmpty }
        let production = withActors.first(where: Self.isProduction) ?? withActors.first
        guard let production else { return nil }
        for eventActor in production.children(OAINamespace.lido, "eventActor") {
            let actor = eventActor.child(OAINamespace.lido, "actorInRole")?.child(OAINamespace.lido, "actor")
            let sets = actor?.children(OAINamespace.lido, "nameActorSet") ?? []
            let names: [(value: XMLTree, set: XMLTree)] = sets.flatMap { set in
                set.children(OAINamespace.lido, "appellationValue").filter(Self.hasText).map { (value: $0, set: set) }
            }
            if let name = text.pick(LIDOPreference.best(names).map { ($0.attribute("lang") ?? language, $0.text) }) {
                return name
            }
            if let shown = OAITextChoice.first(eventActor.children(OAINamespace.lido, "displayActorInRole").map(\.text))
            {
                return shown
            }
        }
        return nil
    }

    /// The event that made the work: one typed as production, else the first with an actor.
    private static func productionEvent(_ events: [XMLTree]) -> XMLTree? {
        events.first(where: isProduction)
            ?? events.first { !$0.children(OAINamespace.lido, "eventActor").isEmpty }
    }

    /// The event's date as displayed, else its earliest and latest dates; the years from those
    /// dates where given, else read from the date.
    private func dating(_ event: XMLTree, language: String) -> (String?, YearRange?) {
        guard let eventDate = event.child(OAINamespace.lido, "eventDate") else { return (nil, nil) }
        let bounds = eventDate.child(OAINamespace.lido, "date")
        let earliest = bounds?.children(OAINamespace.lido, "earliestDate").map(\.text).first { !$0.isEmpty }
        let latest = bounds?.children(OAINamespace.lido, "latestDate").map(\.text).first { !$0.isEmpty }
        let displayed = text.pick(
            eventDate.children(OAINamespace.lido, "displayDate").map { ($0.attribute("lang") ?? language, $0.text) })
        let date = displayed ?? Self.span(earliest, latest)
        let from = earliest.flatMap { YearText.years(in: $0) }
        let to = latest.flatMap { YearText.years(in: $0) }
        if let first = from ?? to, let last = to ?? from {
            return (date, YearRange(earliest: first.earliest, latest: last.latest))
        }
        return (date, date.flatMap { YearText.years(in: $0) })
    }

    /// "1650", or "1650–1660" when the two dates differ.
    private static func span(_ earliest: String?, _ latest: String?) -> String? {
        guard let earliest, let latest, earliest != latest else { return earliest ?? latest }
        return "\(earliest)–\(latest)"
    }

    /// The first `lido:recordInfoLink` that is an http(s) URL of a page.
    private static func landingPage(_ administrative: XMLTree) -> String? {
        let links = administrative.children(OAINamespace.lido, "recordWrap")
            .flatMap { $0.children(OAINamespace.lido, "recordInfoSet") }
            .flatMap { $0.children(OAINamespace.lido, "recordInfoLink") }
        return links.first { link in
            let format = link.attribute("formatResource")?.lowercased() ?? "html"
            return format.contains("html") && isWebURL(link.text)
        }?.text
    }

    /// The work's rights, else the image's, else any resource's.
    private func rights(_ administrative: XMLTree, imageSet: XMLTree?, sets: [XMLTree], language: String) -> String? {
        let work =
            administrative.child(OAINamespace.lido, "rightsWorkWrap")?.children(OAINamespace.lido, "rightsWorkSet")
            ?? []
        let resources = ([imageSet].compactMap { $0 } + sets).flatMap {
            $0.children(OAINamespace.lido, "rightsResource")
        }
        return (work + resources).lazy.compactMap { statement($0, language: language) }.first
    }

    /// A rights set's `lido:rightsType`: a concept ID that is an http(s) URI, else its term by language.
    private func statement(_ rights: XMLTree, language: String) -> String? {
        let types = rights.children(OAINamespace.lido, "rightsType")
        let concepts = types.flatMap { $0.children(OAINamespace.lido, "conceptID") }.map(\.text)
        if let uri = concepts.first(where: Self.isWebURL) {
            return uri
        }
        let terms = types.flatMap { $0.children(OAINamespace.lido, "term") }
        return text.pick(terms.map { ($0.attribute("lang") ?? language, $0.text) })
    }

    private static func isWebURL(_ text: String) -> Bool {
        text.hasPrefix("http://") || text.hasPrefix("https://")
    }

    private static func hasText(_ element: XMLTree) -> Bool {
        !OAITextChoice.collapsed(element.text).isEmpty
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

    /// A `lido:formatResource` that says an image: a media type `image/…`, or a file extension
    /// written bare (`jpg`, `tif`, `.png`).
    static func isImageFormat(_ format: String) -> Bool {
        let written = format.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let bare = written.hasPrefix(".") ? String(written.dropFirst()) : written
        return written.hasPrefix("image/") || DublinCoreRecordReader.imageExtensions.contains(bare)
    }

    /// The resource sets by `lido:sortorder`, then in the record's order.
    private static func resourceSets(_ administrative: XMLTree) -> [XMLTree] {
        let sets =
            administrative.child(OAINamespace.lido, "resourceWrap")?.children(OAINamespace.lido, "resourceSet") ?? []
        return sets.enumerated().sorted { left, right in
            let order = { (set: XMLTree) in set.attribute("sortorder").flatMap { Int($0) } ?? Int.max }
            return (order(left.element), left.offset) < (order(right.element), right.offset)
        }.map { $0.element }
    }

    /// The set's image: of its representations with an http(s) link that may be an image, the
    /// one with the longest measured side, full representations before thumbnails and previews.
    private static func image(in set: XMLTree) -> String? {
        let representations = set.children(OAINamespace.lido, "resourceRepresentation").compactMap {
            representation -> (url: String, pixels: Int?, isPreview: Bool)? in
            guard let link = representation.child(OAINamespace.lido, "linkResource"),
                let url = OAITextChoice.first([link.text]), isWebURL(url),
                link.attribute("formatResource").map(isImageFormat) ?? true
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
        }
        return best.map { representations[$0].url }
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
