import PipelineContract

/// The artist index kept current page by page: a change to some page ids costs work in
/// proportion to the works on those pages, not to the index.
///
/// It follows the same rules as ``ArtistIndex/build(from:)``, which stays the plain statement
/// of them: for any inputs, ``index`` equals `ArtistIndex.build(from: inputs)`, however the
/// inputs were reached (the tests hold it to that).
///
/// It holds where each work comes from (an ``Entry``), not the work: a bucket's works are made
/// from the inputs while the bucket is rendered (``content``), so what it adds to the inputs
/// per work is a few fixed-size records, not another copy of the work's strings.
struct LiveArtistIndex: Sendable {
    private(set) var inputs = IndexInputs()
    /// Each page id's slot: works refer to their page by a number, not by its id.
    private var slotOf: [String: Int32] = [:]
    private var pageIdAt: [String] = []
    private var freeSlots: [Int32] = []
    private var unversioned: [String: OneOrMore<Listing>] = [:]
    private var recordStates: [String: RecordState] = [:]
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
    /// Makers' names as sources write them, and the artists their works are grouped under.
    private var makerArtists: [String: Int32] = [:]

    /// The full build.
    init(_ inputs: IndexInputs) {
        self.inputs = inputs
        // Room for every work from the start: growing a table of a million rehashes it a dozen times.
        var (works, versioned) = (0, 0)
        for page in inputs.pages.values {
            works += page.artworks.count
            versioned +=
                page.artworks.count { $0.recordId != nil && $0.datestamp != nil } + (page.deletions?.count ?? 0)
        }
        unversioned.reserveCapacity(max(0, works - versioned))
        recordStates.reserveCapacity(versioned)
        recordsByObject.reserveCapacity(versioned)
        artistOf.reserveCapacity(works)
        var (objects, records): (Set<String>?, Set<String>?) = (nil, nil)
        var inPageOrder: [String]? = []
        inPageOrder?.reserveCapacity(max(0, works - versioned))
        for page in inputs.pages.values { index(page, objects: &objects, records: &records, firstSeen: &inPageOrder) }
        // Each record settled once, page by page, so its work joins in page order too.
        var recordObjects: [String] = []
        var settledOfSeveral: Set<String> = []
        for page in inputs.pages.values {
            let recordIds =
                page.artworks.lazy.filter { $0.datestamp != nil }.compactMap(\.recordId)
                + (page.deletions ?? []).lazy.map(\.recordId)
            for recordId in recordIds {
                // A record with one version is met once; one with several, settled when first met.
                if case .many? = recordStates[recordId]?.versions, !settledOfSeveral.insert(recordId).inserted {
                    continue
                }
                let settled = settle(record: recordId, fresh: true)
                if let object = settled.after, settled.first { recordObjects.append(object) }
            }
        }
        // Placed in page order, so consecutive works mostly share a page and its thumbnails. Every
        // unversioned object is in `inPageOrder`; the records' objects not among them come first.
        _ = place(recordObjects.filter { unversioned[$0] == nil } + (inPageOrder ?? []), changedSlots: [], fresh: true)
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
        var records: Set<String>? = []
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
        let touched = settle(records: records ?? [], objects: objects ?? [], changedSlots: changedSlots)
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
    /// `records` likewise collects record ids. `firstSeen`, when given, collects each object
    /// number the first time any page lists it.
    private mutating func index(
        _ page: Page, objects: inout Set<String>?, records: inout Set<String>?, firstSeen: inout [String]?
    ) {
        let slot = slot(for: page.pageId)
        for (position, artwork) in page.artworks.enumerated() {
            if let recordId = artwork.recordId, artwork.datestamp != nil {
                addVersion(VersionAt(slot: slot, position: Int32(position)), of: recordId)
                records?.insert(recordId)
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
            addVersion(VersionAt(slot: slot, position: Int32(page.artworks.count + number)), of: deletion.recordId)
            records?.insert(deletion.recordId)
        }
    }

    private mutating func unindex(_ page: Page, objects: inout Set<String>?, records: inout Set<String>?) {
        guard let slot = slotOf[page.pageId] else { return }
        let recordIds =
            page.artworks.compactMap { $0.datestamp == nil ? nil : $0.recordId }
            + (page.deletions ?? []).map(\.recordId)
        for recordId in Set(recordIds) {
            guard var state = recordStates[recordId] else { continue }
            state.versions = state.versions?.removing { $0.slot == slot }
            // A work on this page is taken back now, while the page's old artworks say which it was.
            if let live = state.live, live.slot == slot, live.position < page.artworks.count {
                let object = page.artworks[Int(live.position)].objectNumber
                recordsByObject[object] = recordsByObject[object]?.removing { $0 == recordId }
                objects?.insert(object)
                state.live = nil
            }
            recordStates[recordId] = state.versions == nil && state.live == nil ? nil : state
            records?.insert(recordId)
        }
        for artwork in page.artworks where artwork.recordId == nil || artwork.datestamp == nil {
            unversioned[artwork.objectNumber] = unversioned[artwork.objectNumber]?.removing { $0.slot == slot }
            objects?.insert(artwork.objectNumber)
        }
    }

    /// Decides each changed record's newest version, then each changed object's work.
    private mutating func settle(records: Set<String>, objects: Set<String>, changedSlots: Set<Int32>) -> [String: Int]
    {
        var objects = objects
        for recordId in records {
            let settled = settle(record: recordId)
            if let before = settled.before { objects.insert(before) }
            if let after = settled.after { objects.insert(after) }
        }
        // In the order of their pages, so consecutive works mostly share a page and its thumbnails.
        let ordered = objects.map { (objectNumber: $0, slot: chosen($0)?.slot ?? -1) }.sorted { $0.slot < $1.slot }
        return place(ordered.map(\.objectNumber), changedSlots: changedSlots)
    }

    /// Sets a record's newest version from the versions the pages hold now. Returns the object
    /// numbers it was, and is now, a work of, and whether it is the first record of the latter.
    /// `fresh`: the record was never settled (a full build), so there is nothing to take back.
    private mutating func settle(record recordId: String, fresh: Bool = false) -> (
        before: String?, after: String?, first: Bool
    ) {
        // A work on a page that changed was taken back by `unindex`; this one's page is as it was.
        let before = fresh ? nil : recordStates[recordId]?.live.flatMap(artwork(at:))?.objectNumber
        if let before {
            recordsByObject[before] = recordsByObject[before]?.removing { $0 == recordId }
            recordStates[recordId]?.live = nil
        }
        guard let newest = newestVersion(of: recordId), !newest.deletion, let object = newest.artwork?.objectNumber,
            let slot = slotOf[newest.pageId]
        else {
            if recordStates[recordId]?.versions == nil { recordStates[recordId] = nil }
            return (before, nil, false)
        }
        recordStates[recordId, default: RecordState()].live = VersionAt(slot: slot, position: Int32(newest.position))
        let others = recordsByObject[object]
        recordsByObject[object] = others?.adding(recordId) ?? .one(recordId)
        return (before, object, others == nil)
    }

    private func newestVersion(of recordId: String) -> RecordVersions.Version? {
        var newest: RecordVersions.Version?
        for at in recordStates[recordId]?.versions ?? .many([]) {
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
        switch recordsByObject[objectNumber] {
        case .one(let recordId)?:
            if let live = recordStates[recordId]?.live { return (live.slot, live.position) }
        case .many(let recordIds)?:
            var best: (datestamp: String, recordId: String, live: VersionAt)?
            for recordId in recordIds {
                guard let live = recordStates[recordId]?.live, let datestamp = artwork(at: live)?.datestamp else {
                    continue
                }
                if let current = best, (current.datestamp, current.recordId) >= (datestamp, recordId) { continue }
                best = (datestamp, recordId, live)
            }
            if let best { return (best.live.slot, best.live.position) }
        case nil: break
        }
        return unversioned[objectNumber]?.min {
            ($0.page, pageIdAt[Int($0.slot)]) < ($1.page, pageIdAt[Int($1.slot)])
        }.map { ($0.slot, $0.position) }
    }

    /// The artwork a record's live version is, read from its page as the inputs hold it now.
    private func artwork(at version: VersionAt) -> Artwork? {
        guard let page = inputs.pages[pageIdAt[Int(version.slot)]], version.position < page.artworks.count else {
            return nil
        }
        return page.artworks[Int(version.position)]
    }

    private mutating func addVersion(_ version: VersionAt, of recordId: String) {
        let versions = recordStates[recordId]?.versions
        recordStates[recordId, default: RecordState()].versions = versions?.adding(version) ?? .one(version)
    }

    /// Puts each object's work where it now belongs, and each touched artist's works in order.
    /// A work whose page or thumbnails changed (`changedSlots`) counts as changed. `fresh`: no
    /// object was placed before (a full build), so there is no earlier work to look up.
    private mutating func place(_ objects: [String], changedSlots: Set<Int32>, fresh: Bool = false) -> [String: Int] {
        var removed: [Int32: Set<String>] = [:]
        var added: [Int32: [Entry]] = [:]
        // The page last looked up, with where each object number's item is in its thumbnails; held
        // apart, not as one tuple, so reading them copies no page.
        var (currentSlot, currentArtworks): (Int32, [Artwork]) = (-1, [])
        var (currentItems, currentThumbnails): ([String: Int], IndexedThumbnails?) = ([:], nil)
        for objectNumber in objects {
            let old = fresh ? nil : artistOf[objectNumber].flatMap { artist in entry(objectNumber, of: artist) }
            var new: (artist: Int32, entry: Entry)?
            if let at = chosen(objectNumber) {
                if currentSlot != at.slot {
                    let pageId = pageIdAt[Int(at.slot)]
                    currentSlot = at.slot
                    currentArtworks = inputs.pages[pageId]?.artworks ?? []
                    currentThumbnails = inputs.thumbnails[pageId]
                    currentItems = currentThumbnails?.positions() ?? [:]
                }
                if at.position < currentArtworks.count {
                    let object = currentArtworks[Int(at.position)].objectNumber
                    let item = currentItems[object]
                    let status = item.flatMap { currentThumbnails?.status($0) }.map(Status.init) ?? .pending
                    new = (
                        artistNumber(ofMaker: currentArtworks[Int(at.position)].artist),
                        Entry(
                            objectNumber: object, slot: at.slot, position: at.position,
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

    /// The number of the artist the works of `maker` (as the source writes it) are grouped under.
    private mutating func artistNumber(ofMaker maker: String) -> Int32 {
        if let number = makerArtists[maker] { return number }
        let number = artistNumber(of: ArtistIndex.groupName(maker))
        makerArtists[maker] = number
        return number
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
