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
///
/// Three value types answer its three questions: ``PageSlots``, which page is slot n;
/// ``WorkSources``, which listing or record version is each object's work; ``ArtistShelves``,
/// where each work sits under its artist. An update runs them in that order: pages removed and
/// added (`WorkSources.remove` before `add`), records settled, works placed, slots of pages
/// that are gone freed last.
struct LiveArtistIndex: Sendable {
    private(set) var inputs = IndexInputs()
    private var slots = PageSlots()
    private var sources = WorkSources()
    private var shelves = ArtistShelves()

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
        sources.reserveCapacity(unversioned: max(0, works - versioned), versioned: versioned)
        shelves.reserveCapacity(works: works)
        var (objects, records): (Set<String>?, Set<String>?) = (nil, nil)
        var inPageOrder: [String]? = []
        inPageOrder?.reserveCapacity(max(0, works - versioned))
        for page in inputs.pages.values {
            sources.add(
                page, slot: slots.slot(for: page.pageId), objects: &objects, records: &records, firstSeen: &inPageOrder)
        }
        // Each record settled once, page by page, so its work joins in page order too.
        var recordObjects: [String] = []
        var settledOfSeveral: Set<String> = []
        for page in inputs.pages.values {
            let recordIds =
                page.artworks.lazy.filter { $0.datestamp != nil }.compactMap(\.recordId)
                + (page.deletions ?? []).lazy.map(\.recordId)
            for recordId in recordIds {
                // A record with one version is met once; one with several, settled when first met.
                if sources.hasSeveralVersions(recordId), !settledOfSeveral.insert(recordId).inserted { continue }
                let settled = sources.settle(record: recordId, in: inputs, slots: slots, fresh: true)
                if let object = settled.after, settled.first { recordObjects.append(object) }
            }
        }
        // Placed in page order, so consecutive works mostly share a page and its thumbnails. Every
        // unversioned object is in `inPageOrder`; the records' objects not among them come first.
        _ = place(recordObjects.filter { !sources.isListed($0) } + (inPageOrder ?? []), changedSlots: [], fresh: true)
    }

    init() {}

    var totals: ArtistIndex.Totals {
        ArtistIndex.Totals(
            artists: shelves.artistCount, works: shelves.workCount, pages: inputs.pages.count,
            failedPages: inputs.failedPages.keys.filter { inputs.pages[$0] == nil }.count,
            thumbnails: Dictionary(uniqueKeysWithValues: Status.allCases.map { ($0.name, shelves.count(of: $0)) }))
    }

    /// What the published files are rendered from; works are made as they are asked for.
    var content: IndexContent {
        let index = self
        return IndexContent(
            totals: totals, crawls: ArtistIndex.crawls(from: inputs),
            artists: shelves.artists.map { IndexContent.Artist(name: $0.name, workCount: $0.workCount) },
            works: { artist, range in index.shelves.entries(ofArtistAt: artist)[range].map(index.work) })
    }

    /// The index as ``ArtistIndex/build(from:)`` makes it, every work made.
    var index: ArtistIndex { content.index }

    /// How many works `artist` has in the index now.
    func workCount(of artist: String) -> Int { shelves.workCount(of: artist) }

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
                if let page, let slot = slots.slot(of: page.pageId) {
                    sources.remove(page, slot: slot, objects: &objects, records: &records)
                }
                var unused: [String]?
                if let newPage {
                    sources.add(
                        newPage, slot: slots.slot(for: newPage.pageId), objects: &objects, records: &records,
                        firstSeen: &unused)
                }
                if newPage == nil { gone.append(pageId) }
            } else if thumbnails != newThumbnails, let newPage {
                for artwork in newPage.artworks { objects?.insert(artwork.objectNumber) }
            }
            if page != newPage || thumbnails != newThumbnails, let slot = slots.slot(of: pageId) {
                changedSlots.insert(slot)
            }
        }
        let touched = settle(records: records ?? [], objects: objects ?? [], changedSlots: changedSlots)
        // No work refers to a page that is gone any more: its slot is free for another.
        for pageId in gone { slots.free(pageId) }
        return touched
    }

    /// Decides each changed record's newest version, then each changed object's work.
    private mutating func settle(records: Set<String>, objects: Set<String>, changedSlots: Set<Int32>) -> [String: Int]
    {
        var objects = objects
        for recordId in records {
            let settled = sources.settle(record: recordId, in: inputs, slots: slots)
            if let before = settled.before { objects.insert(before) }
            if let after = settled.after { objects.insert(after) }
        }
        // In the order of their pages, so consecutive works mostly share a page and its thumbnails.
        let ordered = objects.map { (objectNumber: $0, slot: sources.chosen($0, in: inputs, slots: slots)?.slot ?? -1) }
            .sorted { $0.slot < $1.slot }
        return place(ordered.map(\.objectNumber), changedSlots: changedSlots)
    }

    /// Puts each object's work where it now belongs, and each touched artist's works in order.
    /// A work whose page or thumbnails changed (`changedSlots`) counts as changed. `fresh`: no
    /// object was placed before (a full build), so there is no earlier work to look up.
    private mutating func place(_ objects: [String], changedSlots: Set<Int32>, fresh: Bool = false) -> [String: Int] {
        var changes = ArtistShelves.Changes()
        // The page last looked up, with where each object number's item is in its thumbnails; held
        // apart, not as one tuple, so reading them copies no page.
        var (currentSlot, currentArtworks): (Int32, [Artwork]) = (-1, [])
        var (currentItems, currentThumbnails): ([String: Int], IndexedThumbnails?) = ([:], nil)
        for objectNumber in objects {
            let old = fresh ? nil : shelves.placed(objectNumber)
            var new: (artist: Int32, entry: Entry)?
            if let at = sources.chosen(objectNumber, in: inputs, slots: slots) {
                if currentSlot != at.slot {
                    let pageId = slots[at.slot]
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
                        shelves.artistNumber(ofMaker: currentArtworks[Int(at.position)].artist),
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
            shelves.move(objectNumber, from: old, to: new, changes: &changes)
        }
        return shelves.apply(changes)
    }

    /// The work `entry` stands for, made from the inputs.
    private func work(_ entry: Entry) -> ArtistIndex.Work {
        let pageId = slots[entry.slot]
        guard let page = inputs.pages[pageId], entry.position < page.artworks.count else {
            preconditionFailure("the live index refers to page \(pageId), which its inputs no longer hold")
        }
        let thumbnails = inputs.thumbnails[pageId]
        let item = thumbnails.map { 0..<$0.count }?.contains(Int(entry.item)) == true ? Int(entry.item) : nil
        return ArtistIndex.Work(page.artworks[Int(entry.position)], of: page, thumbnails: thumbnails, item: item)
    }
}
