import PipelineContract

/// The artist index kept current page by page: a change to some page ids costs work in
/// proportion to the works on those pages, not to the index.
///
/// It follows the same rules as ``ArtistIndex/build(from:)``, which stays the plain statement
/// of them: for any inputs, ``index`` equals `ArtistIndex.build(from: inputs)`, however the
/// inputs were reached (the tests hold it to that).
///
/// It holds where each work comes from (an ``Entry``), not the work: a bucket's works are made
/// from the inputs while the bucket is rendered (``content``), so the index adds a few dozen
/// bytes per work to the inputs it is built from.
struct LiveArtistIndex: Sendable {
    /// Where an unversioned work is listed: the lowest page (then page id) holds it.
    struct Listing: Sendable {
        var page: Int32
        var slot: Int32
        var position: Int32
    }

    /// Where a version of a record is: a position among the page's artworks, or past them, its deletions.
    struct VersionAt: Sendable {
        var slot: Int32
        var position: Int32
    }

    /// A record whose newest version is a work: that work's object number and where it is.
    struct LiveRecord: Sendable {
        var objectNumber: String
        var datestamp: String
        var slot: Int32
        var position: Int32
    }

    /// A work in the index: the artwork at `position` of the page in `slot`, with the item at
    /// `item` of that page's thumbnails (-1: none yet).
    struct Entry: Sendable, Equatable {
        var objectNumber: String
        var slot: Int32
        var position: Int32
        var item: Int32
        var status: Status
    }

    enum Status: UInt8, Sendable, CaseIterable {
        case ok, noImage, failed, pending

        init(_ status: PageThumbnails.Item.Status) {
            switch status {
            case .ok: self = .ok
            case .noImage: self = .noImage
            case .failed: self = .failed
            }
        }

        /// As ``ArtistIndex/Work/thumbnailStatus`` says it.
        var name: String {
            switch self {
            case .ok: "ok"
            case .noImage: "noImage"
            case .failed: "failed"
            case .pending: "pending"
            }
        }
    }

    private(set) var inputs = IndexInputs()
    /// Each page id's slot: works refer to their page by a number, not by its id.
    private var slotOf: [String: Int32] = [:]
    private var pageIdAt: [String] = []
    private var freeSlots: [Int32] = []
    private var unversioned: [String: OneOrMore<Listing>] = [:]
    private var versions: [String: OneOrMore<VersionAt>] = [:]
    private var liveRecords: [String: LiveRecord] = [:]
    /// The records whose newest version is a work with this object number.
    private var recordsByObject: [String: OneOrMore<String>] = [:]
    /// The artist each work in the index is grouped under, by object number.
    private var artistOf: [String: Int32] = [:]
    /// Artists by number: name, collation key and works in index order (by object number).
    private var artistNumber: [String: Int32] = [:]
    private var artistNames: [String] = []
    private var collationKeys: [String] = []
    private var entries: [[Entry]] = []
    /// The numbers of the artists with works, in index order.
    private var order: [Int32] = []
    private var statusCounts = [Int](repeating: 0, count: Status.allCases.count)
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
        _ = settle(records: records, objects: [], changedSlots: [], then: inPageOrder ?? [])
    }

    init() {}

    var totals: ArtistIndex.Totals {
        ArtistIndex.Totals(
            artists: order.count, works: artistOf.count, pages: inputs.pages.count,
            failedPages: inputs.failedPages.keys.filter { inputs.pages[$0] == nil }.count,
            thumbnails: Dictionary(
                uniqueKeysWithValues: Status.allCases.map { ($0.name, statusCounts[Int($0.rawValue)]) }))
    }

    /// What the published files are rendered from; works are made as they are asked for.
    var content: IndexContent {
        let index = self
        return IndexContent(
            totals: totals, crawls: ArtistIndex.crawls(from: inputs),
            artists: order.map { IndexContent.Artist(name: artistNames[Int($0)], workCount: entries[Int($0)].count) },
            works: { artist, range in index.entries[Int(index.order[artist])][range].map(index.work) })
    }

    /// The index as ``ArtistIndex/build(from:)`` makes it, every work made.
    var index: ArtistIndex { content.index }

    /// How many works `artist` has in the index now.
    func workCount(of artist: String) -> Int { artistNumber[artist].map { entries[Int($0)].count } ?? 0 }

    /// Takes the inputs of `pageIds` from `merged`, where they may have changed, and updates the
    /// works they hold or held. Returns each artist whose works changed, with its count before.
    mutating func update(_ pageIds: some Sequence<String>, from merged: (String, inout IndexInputs) -> Void) -> [String:
        Int]
    {
        var objects: Set<String>? = []
        var records: Set<String> = []
        var changedSlots: Set<Int32> = []
        var gone: [String] = []
        for pageId in pageIds {
            let (page, thumbnails) = (inputs.pages[pageId], inputs.thumbnails[pageId])
            merged(pageId, &inputs)
            let (newPage, newThumbnails) = (inputs.pages[pageId], inputs.thumbnails[pageId])
            if page != newPage {
                if let page { unindex(page, objects: &objects, records: &records) }
                var unused: [String]?
                if let newPage { index(newPage, objects: &objects, records: &records, firstSeen: &unused) }
                if newPage == nil { gone.append(pageId) }
            } else if thumbnails != newThumbnails, let newPage {
                for artwork in newPage.artworks { objects?.insert(artwork.objectNumber) }
            }
            if page != newPage || thumbnails != newThumbnails, let slot = slotOf[pageId] { changedSlots.insert(slot) }
        }
        let touched = settle(records: records, objects: objects ?? [], changedSlots: changedSlots)
        // No work refers to a page that is gone any more: its slot is free for another.
        for pageId in gone {
            guard let slot = slotOf.removeValue(forKey: pageId) else { continue }
            pageIdAt[Int(slot)] = ""
            freeSlots.append(slot)
        }
        return touched
    }

    private mutating func slot(for pageId: String) -> Int32 {
        if let slot = slotOf[pageId] { return slot }
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            pageIdAt[Int(slot)] = pageId
        } else {
            slot = Int32(pageIdAt.count)
            pageIdAt.append(pageId)
        }
        slotOf[pageId] = slot
        return slot
    }

    /// Adds `page`'s listings and versions; `objects` collects the object numbers, when given.
    /// `firstSeen`, when given, collects each object number the first time any page lists it.
    private mutating func index(
        _ page: Page, objects: inout Set<String>?, records: inout Set<String>, firstSeen: inout [String]?
    ) {
        let slot = slot(for: page.pageId)
        for (position, artwork) in page.artworks.enumerated() {
            if let recordId = artwork.recordId, artwork.datestamp != nil {
                versions.add(VersionAt(slot: slot, position: Int32(position)), to: recordId)
                records.insert(recordId)
                continue
            }
            objects?.insert(artwork.objectNumber)
            let listing = Listing(page: Int32(clamping: page.page), slot: slot, position: Int32(position))
            if let listed = unversioned[artwork.objectNumber] {
                // A second listing on the same page never wins over the first.
                if listed.contains(where: { $0.slot == slot }) { continue }
                unversioned[artwork.objectNumber] = listed.adding(listing)
            } else {
                firstSeen?.append(artwork.objectNumber)
                unversioned[artwork.objectNumber] = .one(listing)
            }
        }
        for (number, deletion) in (page.deletions ?? []).enumerated() {
            versions.add(VersionAt(slot: slot, position: Int32(page.artworks.count + number)), to: deletion.recordId)
            records.insert(deletion.recordId)
        }
    }

    private mutating func unindex(_ page: Page, objects: inout Set<String>?, records: inout Set<String>) {
        guard let slot = slotOf[page.pageId] else { return }
        let recordIds =
            page.artworks.compactMap { $0.datestamp == nil ? nil : $0.recordId }
            + (page.deletions ?? []).map(\.recordId)
        for recordId in Set(recordIds) {
            versions[recordId] = versions[recordId]?.removing { $0.slot == slot }
            records.insert(recordId)
        }
        for artwork in page.artworks where artwork.recordId == nil || artwork.datestamp == nil {
            unversioned[artwork.objectNumber] = unversioned[artwork.objectNumber]?.removing { $0.slot == slot }
            objects?.insert(artwork.objectNumber)
        }
    }

    /// Decides each changed record's newest version, then each changed object's work.
    private mutating func settle(
        records: Set<String>, objects: Set<String>, changedSlots: Set<Int32>, then more: [String] = []
    ) -> [String: Int] {
        var objects = objects
        for recordId in records {
            if let before = liveRecords.removeValue(forKey: recordId) {
                recordsByObject[before.objectNumber] = recordsByObject[before.objectNumber]?.removing { $0 == recordId }
                objects.insert(before.objectNumber)
            }
            guard let newest = newestVersion(of: recordId), !newest.deletion, let artwork = newest.artwork,
                let slot = slotOf[newest.pageId]
            else { continue }
            liveRecords[recordId] = LiveRecord(
                objectNumber: artwork.objectNumber, datestamp: newest.datestamp, slot: slot,
                position: Int32(newest.position))
            recordsByObject.add(recordId, to: artwork.objectNumber)
            objects.insert(artwork.objectNumber)
        }
        // `more` holds every unversioned object once; the records' objects not among them come first.
        return place(
            more.isEmpty ? Array(objects) : objects.filter { unversioned[$0] == nil } + more, changedSlots: changedSlots
        )
    }

    private func newestVersion(of recordId: String) -> RecordVersions.Version? {
        var newest: RecordVersions.Version?
        for at in versions[recordId] ?? .many([]) {
            guard let page = inputs.pages[pageIdAt[Int(at.slot)]],
                let version = RecordVersions.Version(at: Int(at.position), of: page)
            else { continue }
            if let current = newest, !version.isNewer(than: current) { continue }
            newest = version
        }
        return newest
    }

    /// Where the work an object number now is comes from, if anywhere: a record's newest
    /// version (the newer record wins, then the record id), else the lowest page's listing.
    private func chosen(_ objectNumber: String) -> (slot: Int32, position: Int32)? {
        var best: (recordId: String, record: LiveRecord)?
        for recordId in recordsByObject[objectNumber] ?? .many([]) {
            guard let record = liveRecords[recordId] else { continue }
            if let current = best, (current.record.datestamp, current.recordId) >= (record.datestamp, recordId) {
                continue
            }
            best = (recordId, record)
        }
        if let best { return (best.record.slot, best.record.position) }
        return unversioned[objectNumber]?.min {
            ($0.page, pageIdAt[Int($0.slot)]) < ($1.page, pageIdAt[Int($1.slot)])
        }.map { ($0.slot, $0.position) }
    }

    /// Puts each object's work where it now belongs, and each touched artist's works in order.
    /// A work whose page or thumbnails changed (`changedSlots`) counts as changed.
    private mutating func place(_ objects: [String], changedSlots: Set<Int32>) -> [String: Int] {
        var removed: [Int32: Set<String>] = [:]
        var added: [Int32: [Entry]] = [:]
        // The page last looked up, with where each object number's item is in its thumbnails.
        var current: (slot: Int32, page: Page, items: [String: Int], thumbnails: IndexedThumbnails?)?
        for objectNumber in objects {
            let old =
                artistOf.isEmpty ? nil : artistOf[objectNumber].flatMap { artist in entry(objectNumber, of: artist) }
            var new: (artist: Int32, entry: Entry)?
            if let at = chosen(objectNumber) {
                if current?.slot != at.slot, let page = inputs.pages[pageIdAt[Int(at.slot)]] {
                    let thumbnails = inputs.thumbnails[page.pageId]
                    current = (at.slot, page, thumbnails?.positions() ?? [:], thumbnails)
                }
                if let current, current.slot == at.slot, at.position < current.page.artworks.count {
                    let artwork = current.page.artworks[Int(at.position)]
                    let item = current.items[artwork.objectNumber]
                    let status = item.flatMap { current.thumbnails?.status($0) }.map(Status.init) ?? .pending
                    new = (
                        artistNumber(of: ArtistIndex.groupName(artwork.artist, cache: &groupNames)),
                        Entry(
                            objectNumber: artwork.objectNumber, slot: at.slot, position: at.position,
                            item: item.map(Int32.init) ?? -1,
                            status: status)
                    )
                }
            }
            if let old, let new, old.artist == new.artist, old.entry == new.entry,
                !changedSlots.contains(new.entry.slot)
            {
                continue
            }
            if let old {
                removed[old.artist, default: []].insert(objectNumber)
                statusCounts[Int(old.entry.status.rawValue)] -= 1
            }
            artistOf[objectNumber] = new?.artist
            if let new {
                added[new.artist, default: []].append(new.entry)
                statusCounts[Int(new.entry.status.rawValue)] += 1
            }
        }
        var touched: [Int32: Int] = [:]
        for artist in removed.keys { touched[artist] = entries[Int(artist)].count }
        for artist in added.keys { touched[artist] = entries[Int(artist)].count }
        var left: [Int32] = []
        var arrived: [Int32] = []
        for (artist, before) in touched {
            let gone = removed[artist] ?? []
            let kept =
                gone.isEmpty ? entries[Int(artist)] : entries[Int(artist)].filter { !gone.contains($0.objectNumber) }
            entries[Int(artist)] = []
            entries[Int(artist)] = Self.merge(kept, (added[artist] ?? []).sorted(by: Self.entryOrder))
            if before > 0 && entries[Int(artist)].isEmpty { left.append(artist) }
            if before == 0 && !entries[Int(artist)].isEmpty { arrived.append(artist) }
        }
        for artist in left { order.remove(at: position(of: artist)) }
        if arrived.count > order.count / 8 {
            var all = order + arrived
            all.sort { precedes($0, $1) }
            order = all
        } else {
            for artist in arrived { order.insert(artist, at: position(of: artist)) }
        }
        return Dictionary(uniqueKeysWithValues: touched.map { (artistNames[Int($0.key)], $0.value) })
    }

    /// The number of the artist `name`, given one if it is new.
    private mutating func artistNumber(of name: String) -> Int32 {
        if let number = artistNumber[name] { return number }
        let number = Int32(artistNames.count)
        artistNumber[name] = number
        artistNames.append(name)
        collationKeys.append(ArtistIndex.collationKey(name))
        entries.append([])
        return number
    }

    private func precedes(_ a: Int32, _ b: Int32) -> Bool {
        ArtistIndex.artistOrder(
            artistNames[Int(a)], collationKeys[Int(a)], artistNames[Int(b)], collationKeys[Int(b)])
    }

    /// Where `artist` is, or would be, in ``order``.
    private func position(of artist: Int32) -> Int {
        var (low, high) = (0, order.count)
        while low < high {
            let middle = (low + high) / 2
            if precedes(order[middle], artist) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func entry(_ objectNumber: String, of artist: Int32) -> (artist: Int32, entry: Entry)? {
        let list = entries[Int(artist)]
        var (low, high) = (0, list.count)
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(list[middle].objectNumber, objectNumber) { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low].objectNumber == objectNumber ? (artist, list[low]) : nil
    }

    /// The work `entry` stands for, made from the inputs.
    private func work(_ entry: Entry) -> ArtistIndex.Work {
        let pageId = pageIdAt[Int(entry.slot)]
        guard let page = inputs.pages[pageId], entry.position < page.artworks.count else {
            preconditionFailure("the live index refers to page \(pageId), which its inputs no longer hold")
        }
        let thumbnails = inputs.thumbnails[pageId]
        let item = thumbnails.map { 0..<$0.count }?.contains(Int(entry.item)) == true ? Int(entry.item) : nil
        return ArtistIndex.Work(page.artworks[Int(entry.position)], of: page, thumbnails: thumbnails, item: item)
    }

    private static func precedes(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    }

    private static func entryOrder(_ a: Entry, _ b: Entry) -> Bool { precedes(a.objectNumber, b.objectNumber) }

    private static func merge(_ a: [Entry], _ b: [Entry]) -> [Entry] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        var merged: [Entry] = []
        merged.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
            if entryOrder(b[j], a[i]) {
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
