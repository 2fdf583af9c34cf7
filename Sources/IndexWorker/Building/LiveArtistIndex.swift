import PipelineContract

/// The artist index kept current page by page: a change to some page ids costs work in
/// proportion to the works on those pages, not to the index.
///
/// It follows the same rules as ``ArtistIndex/build(from:)``, which stays the plain statement
/// of them: for any inputs, ``index`` equals `ArtistIndex.build(from: inputs)`, however the
/// inputs were reached (the tests hold it to that).
struct LiveArtistIndex: Sendable {
    /// Where an unversioned work appears: the lowest page (then page id) holds it.
    struct Occurrence: Sendable {
        var page: Int
        var pageId: String
        var position: Int
    }

    /// Where a version of a record is: a position among the page's artworks, or past them, its deletions.
    struct VersionAt: Sendable {
        var pageId: String
        var position: Int
    }

    private(set) var inputs = IndexInputs()
    private var unversioned: [String: [Occurrence]] = [:]
    private var versions: [String: [VersionAt]] = [:]
    /// Each record's newest version, when that is not a deletion.
    private var liveRecords: [String: RecordVersions.Version] = [:]
    /// The records whose newest version is a work with this object number.
    private var recordsByObject: [String: [String]] = [:]
    /// The artist each work in the index is grouped under, by object number.
    private var artistOf: [String: String] = [:]
    /// Each artist's works, in index order (by object number).
    private var works: [String: [ArtistIndex.Work]] = [:]
    /// Artists in index order, with their collation keys.
    private var order: [String] = []
    private var collationKeys: [String: String] = [:]
    private var statusCounts = ["ok": 0, "noImage": 0, "failed": 0, "pending": 0]
    /// Makers' names as sources write them, and the names their works are grouped under.
    private var groupNames: [String: String] = [:]

    /// The full build.
    init(_ inputs: IndexInputs) {
        self.inputs = inputs
        let works = inputs.pages.values.map(\.artworks.count).reduce(0, +)
        unversioned.reserveCapacity(works)
        artistOf.reserveCapacity(works)
        var objects: Set<String>?
        var records: Set<String> = []
        var inPageOrder: [String]? = []
        inPageOrder?.reserveCapacity(works)
        for page in inputs.pages.values { index(page, objects: &objects, records: &records, firstSeen: &inPageOrder) }
        // Placed in page order, so consecutive works mostly share a page and its thumbnails.
        _ = settle(records: records, objects: [], then: inPageOrder ?? [])
    }

    init() {}

    /// The index as ``ArtistIndex/build(from:)`` makes it.
    var index: ArtistIndex {
        let artists = order.map { ArtistIndex.Artist(name: $0, works: works[$0] ?? []) }
        return ArtistIndex(
            schema: ArtistIndex.schemaName,
            totals: ArtistIndex.Totals(
                artists: artists.count, works: artistOf.count, pages: inputs.pages.count,
                failedPages: inputs.failedPages.keys.filter { inputs.pages[$0] == nil }.count,
                thumbnails: statusCounts),
            crawls: ArtistIndex.crawls(from: inputs), artists: artists)
    }

    /// Takes the inputs of `pageIds` from `merged`, where they may have changed, and updates the
    /// works they hold or held. Returns each artist whose works changed, with its count before.
    mutating func update(_ pageIds: some Sequence<String>, from merged: (String, inout IndexInputs) -> Void) -> [String:
        Int]
    {
        var objects: Set<String>? = []
        var records: Set<String> = []
        for pageId in pageIds {
            let (page, thumbnails) = (inputs.pages[pageId], inputs.thumbnails[pageId])
            merged(pageId, &inputs)
            let (newPage, newThumbnails) = (inputs.pages[pageId], inputs.thumbnails[pageId])
            if page != newPage {
                if let page { unindex(page, objects: &objects, records: &records) }
                var unused: [String]?
                if let newPage { index(newPage, objects: &objects, records: &records, firstSeen: &unused) }
            } else if thumbnails != newThumbnails, let newPage {
                for artwork in newPage.artworks { objects?.insert(artwork.objectNumber) }
            }
        }
        return settle(records: records, objects: objects ?? [])
    }

    /// Adds `page`'s listings and versions; `objects` collects the object numbers, when given.
    /// `firstSeen`, when given, collects each object number the first time any page lists it.
    private mutating func index(
        _ page: Page, objects: inout Set<String>?, records: inout Set<String>, firstSeen: inout [String]?
    ) {
        for (position, artwork) in page.artworks.enumerated() {
            if let recordId = artwork.recordId, artwork.datestamp != nil {
                versions[recordId, default: []].append(VersionAt(pageId: page.pageId, position: position))
                records.insert(recordId)
            } else {
                objects?.insert(artwork.objectNumber)
                // A second listing on the same page never wins over the first.
                if unversioned[artwork.objectNumber]?.contains(where: { $0.pageId == page.pageId }) == true {
                    continue
                }
                if unversioned[artwork.objectNumber] == nil { firstSeen?.append(artwork.objectNumber) }
                unversioned[artwork.objectNumber, default: []].append(
                    Occurrence(page: page.page, pageId: page.pageId, position: position))
            }
        }
        for (number, deletion) in (page.deletions ?? []).enumerated() {
            versions[deletion.recordId, default: []].append(
                VersionAt(pageId: page.pageId, position: page.artworks.count + number))
            records.insert(deletion.recordId)
        }
    }

    private mutating func unindex(_ page: Page, objects: inout Set<String>?, records: inout Set<String>) {
        let recordIds =
            page.artworks.compactMap { $0.datestamp == nil ? nil : $0.recordId }
            + (page.deletions ?? []).map(\.recordId)
        for recordId in Set(recordIds) {
            versions[recordId]?.removeAll { $0.pageId == page.pageId }
            if versions[recordId]?.isEmpty == true { versions[recordId] = nil }
            records.insert(recordId)
        }
        for artwork in page.artworks where artwork.recordId == nil || artwork.datestamp == nil {
            let objectNumber = artwork.objectNumber
            unversioned[objectNumber]?.removeAll { $0.pageId == page.pageId }
            if unversioned[objectNumber]?.isEmpty == true { unversioned[objectNumber] = nil }
            objects?.insert(objectNumber)
        }
    }

    /// Decides each changed record's newest version, then each changed object's work.
    private mutating func settle(records: Set<String>, objects: Set<String>, then more: [String] = []) -> [String: Int]
    {
        var objects = objects
        for recordId in records {
            let newest = newestVersion(of: recordId)
            let before = liveRecords[recordId]
            if let object = before?.artwork?.objectNumber {
                recordsByObject[object]?.removeAll { $0 == recordId }
                if recordsByObject[object]?.isEmpty == true { recordsByObject[object] = nil }
                objects.insert(object)
            }
            liveRecords[recordId] = newest?.deletion == false ? newest : nil
            if let object = liveRecords[recordId]?.artwork?.objectNumber {
                recordsByObject[object, default: []].append(recordId)
                objects.insert(object)
            }
        }
        // `more` holds every unversioned object once; the records' objects not among them come first.
        return place(more.isEmpty ? Array(objects) : objects.filter { unversioned[$0] == nil } + more)
    }

    private func newestVersion(of recordId: String) -> RecordVersions.Version? {
        var newest: RecordVersions.Version?
        for at in versions[recordId] ?? [] {
            guard let page = inputs.pages[at.pageId], let version = RecordVersions.Version(at: at.position, of: page)
            else { continue }
            if let current = newest, !version.isNewer(than: current) { continue }
            newest = version
        }
        return newest
    }

    /// Where the work an object number now is comes from, if anywhere: a record's newest
    /// version (the newer record wins, then the record id), else the lowest page's listing.
    private func chosen(_ objectNumber: String) -> (pageId: String, position: Int)? {
        var best: (datestamp: String, recordId: String, version: RecordVersions.Version)?
        for recordId in recordsByObject[objectNumber] ?? [] {
            guard let version = liveRecords[recordId], let datestamp = version.artwork?.datestamp else { continue }
            if let current = best, (current.datestamp, current.recordId) >= (datestamp, recordId) { continue }
            best = (datestamp, recordId, version)
        }
        if let best { return (best.version.pageId, best.version.position) }
        return unversioned[objectNumber]?.min(by: { ($0.page, $0.pageId) < ($1.page, $1.pageId) }).map {
            ($0.pageId, $0.position)
        }
    }

    /// Puts each object's work where it now belongs, and each touched artist's works in order.
    private mutating func place(_ objects: [String]) -> [String: Int] {
        var touched: [String: Int] = [:]
        var removed: [String: Set<String>] = [:]
        var added: [String: [ArtistIndex.Work]] = [:]
        // The page last looked up, with its thumbnails by object number.
        var current: (pageId: String, page: Page, items: [String: PageThumbnails.Item])?
        for objectNumber in objects {
            let old =
                artistOf.isEmpty
                ? nil : artistOf[objectNumber].flatMap { artist in work(objectNumber, of: artist).map { (artist, $0) } }
            var new: (artist: String, work: ArtistIndex.Work)?
            if let at = chosen(objectNumber) {
                if current?.pageId != at.pageId, let page = inputs.pages[at.pageId] {
                    current = (at.pageId, page, inputs.thumbnails[at.pageId].map(ArtistIndex.items(of:)) ?? [:])
                }
                if let current, current.pageId == at.pageId, at.position < current.page.artworks.count {
                    new = ArtistIndex.work(
                        current.page.artworks[at.position], of: current.page, item: current.items[objectNumber],
                        groupNames: &groupNames)
                }
            }
            if let old, let new, old.0 == new.artist, old.1 == new.work { continue }
            if let (artist, work) = old {
                removed[artist, default: []].insert(objectNumber)
                statusCounts[work.thumbnailStatus, default: 0] -= 1
            }
            artistOf[objectNumber] = new?.artist
            if let (artist, work) = new {
                added[artist, default: []].append(work)
                statusCounts[work.thumbnailStatus, default: 0] += 1
            }
        }
        for artist in removed.keys { touched[artist] = works[artist]?.count ?? 0 }
        for artist in added.keys { touched[artist] = works[artist]?.count ?? 0 }
        for artist in touched.keys {
            let kept = (works[artist] ?? []).filter { removed[artist]?.contains($0.objectNumber) != true }
            let merged = Self.merge(kept, (added[artist] ?? []).sorted(by: Self.workOrder))
            let existed = works[artist] != nil
            works[artist] = merged.isEmpty ? nil : merged
            if existed && merged.isEmpty {
                order.remove(at: position(of: artist))
                collationKeys[artist] = nil
            } else if !existed && !merged.isEmpty {
                collationKeys[artist] = ArtistIndex.collationKey(artist)
            }
        }
        let newArtists = touched.keys.filter { works[$0] != nil && touched[$0] == 0 }
        if newArtists.count > order.count / 8 {
            order = Array(works.keys)
            order.sort { ArtistIndex.artistOrder($0, collationKeys[$0]!, $1, collationKeys[$1]!) }
        } else {
            for artist in newArtists { order.insert(artist, at: position(of: artist)) }
        }
        return touched
    }

    /// Where `artist` is, or would be, in ``order``.
    private func position(of artist: String) -> Int {
        let key = collationKeys[artist] ?? ArtistIndex.collationKey(artist)
        var (low, high) = (0, order.count)
        while low < high {
            let middle = (low + high) / 2
            if ArtistIndex.artistOrder(order[middle], collationKeys[order[middle]]!, artist, key) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    private func work(_ objectNumber: String, of artist: String) -> ArtistIndex.Work? {
        guard let list = works[artist] else { return nil }
        var (low, high) = (0, list.count)
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(list[middle].objectNumber, objectNumber) { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low].objectNumber == objectNumber ? list[low] : nil
    }

    private static func precedes(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    }

    private static func workOrder(_ a: ArtistIndex.Work, _ b: ArtistIndex.Work) -> Bool {
        precedes(a.objectNumber, b.objectNumber)
    }

    private static func merge(_ a: [ArtistIndex.Work], _ b: [ArtistIndex.Work]) -> [ArtistIndex.Work] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        var merged: [ArtistIndex.Work] = []
        merged.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
            if workOrder(b[j], a[i]) {
                merged.append(b[j])
                j += 1
            } else {
                merged.append(a[i])
                i += 1
            }
        }
        merged.append(contentsOf: a[i...])
        merged.append(contentsOf: b[j...])
        return merged
    }
}

extension LiveArtistIndex {
    /// How many works `artist` has in the index now.
    func workCount(of artist: String) -> Int { works[artist]?.count ?? 0 }
}
