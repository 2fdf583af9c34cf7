import PipelineContract

/// Which listing or record version each object number's work comes from.
///
/// It holds positions in the inputs, not artworks: what a position holds is read from the
/// pages (`inputs`, through `slots`) when it is needed. Invariants, enforced here:
/// - a page's versions and listings are added when the page arrives (``add(_:slot:objects:records:firstSeen:)``)
///   and taken back, with any work its old artworks made live, before the page changes
///   (``remove(_:slot:objects:records:)``);
/// - a record is settled (``settle(record:in:slots:fresh:)``) only after every page that holds
///   its versions was added or removed, so its newest version is read from the pages as they are now.
struct WorkSources: Sendable {
    typealias Listing = LiveArtistIndex.Listing
    typealias VersionAt = LiveArtistIndex.VersionAt
    typealias RecordState = LiveArtistIndex.RecordState

    private var unversioned: [String: OneOrMore<Listing>] = [:]
    private var recordStates: [String: RecordState] = [:]
    /// The records whose newest version is a work with this object number.
    private var recordsByObject: [String: OneOrMore<String>] = [:]

    /// Room for `unversioned` listed objects and `versioned` records from the start: growing a
    /// table of a million rehashes it a dozen times.
    mutating func reserveCapacity(unversioned: Int, versioned: Int) {
        self.unversioned.reserveCapacity(unversioned)
        recordStates.reserveCapacity(versioned)
        recordsByObject.reserveCapacity(versioned)
    }

    /// Whether some page lists `objectNumber` without a version.
    func isListed(_ objectNumber: String) -> Bool { unversioned[objectNumber] != nil }

    /// Whether `recordId` has versions on more than one page or position.
    func hasSeveralVersions(_ recordId: String) -> Bool {
        if case .many? = recordStates[recordId]?.versions { return true }
        return false
    }

    /// Adds `page`'s listings and versions; `objects` collects the object numbers, when given.
    /// `records` likewise collects record ids. `firstSeen`, when given, collects each object
    /// number the first time any page lists it.
    mutating func add(
        _ page: Page, slot: Int32, objects: inout Set<String>?, records: inout Set<String>?,
        firstSeen: inout [String]?
    ) {
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

    /// Takes back what `page`, as it was in `slot`, added.
    mutating func remove(_ page: Page, slot: Int32, objects: inout Set<String>?, records: inout Set<String>?) {
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

    /// Sets a record's newest version from the versions the pages hold now. Returns the object
    /// numbers it was, and is now, a work of, and whether it is the first record of the latter.
    /// `fresh`: the record was never settled (a full build), so there is nothing to take back.
    mutating func settle(record recordId: String, in inputs: IndexInputs, slots: PageSlots, fresh: Bool = false) -> (
        before: String?, after: String?, first: Bool
    ) {
        // A work on a page that changed was taken back by `remove`; this one's page is as it was.
        let before =
            fresh
            ? nil : recordStates[recordId]?.live.flatMap { artwork(at: $0, in: inputs, slots: slots) }?.objectNumber
        if let before {
            recordsByObject[before] = recordsByObject[before]?.removing { $0 == recordId }
            recordStates[recordId]?.live = nil
        }
        guard let newest = newestVersion(of: recordId, in: inputs, slots: slots), !newest.deletion,
            let object = newest.artwork?.objectNumber, let slot = slots.slot(of: newest.pageId)
        else {
            if recordStates[recordId]?.versions == nil { recordStates[recordId] = nil }
            return (before, nil, false)
        }
        recordStates[recordId, default: RecordState()].live = VersionAt(slot: slot, position: Int32(newest.position))
        let others = recordsByObject[object]
        recordsByObject[object] = others?.adding(recordId) ?? .one(recordId)
        return (before, object, others == nil)
    }

    /// Where the work an object number now is comes from, if anywhere: a record's newest
    /// version (the newer record wins, then the record id), else the lowest page's listing.
    func chosen(_ objectNumber: String, in inputs: IndexInputs, slots: PageSlots) -> (slot: Int32, position: Int32)? {
        switch recordsByObject[objectNumber] {
        case .one(let recordId)?:
            if let live = recordStates[recordId]?.live { return (live.slot, live.position) }
        case .many(let recordIds)?:
            var best: (datestamp: String, recordId: String, live: VersionAt)?
            for recordId in recordIds {
                guard let live = recordStates[recordId]?.live,
                    let datestamp = artwork(at: live, in: inputs, slots: slots)?.datestamp
                else {
                    continue
                }
                if let current = best, (current.datestamp, current.recordId) >= (datestamp, recordId) { continue }
                best = (datestamp, recordId, live)
            }
            if let best { return (best.live.slot, best.live.position) }
        case nil: break
        }
        return unversioned[objectNumber]?.min {
            ($0.page, slots[$0.slot]) < ($1.page, slots[$1.slot])
        }.map { ($0.slot, $0.position) }
    }

    private func newestVersion(of recordId: String, in inputs: IndexInputs, slots: PageSlots)
        -> RecordVersions.Version?
    {
        var newest: RecordVersions.Version?
        for at in recordStates[recordId]?.versions ?? .many([]) {
            guard let page = inputs.pages[slots[at.slot]],
                let version = RecordVersions.Version(at: Int(at.position), of: page)
            else { continue }
            if let current = newest, !version.isNewer(than: current) { continue }
            newest = version
        }
        return newest
    }

    /// The artwork a record's live version is, read from its page as the inputs hold it now.
    private func artwork(at version: VersionAt, in inputs: IndexInputs, slots: PageSlots) -> Artwork? {
        guard let page = inputs.pages[slots[version.slot]], version.position < page.artworks.count else {
            return nil
        }
        return page.artworks[Int(version.position)]
    }

    private mutating func addVersion(_ version: VersionAt, of recordId: String) {
        let versions = recordStates[recordId]?.versions
        recordStates[recordId, default: RecordState()].versions = versions?.adding(version) ?? .one(version)
    }
}
