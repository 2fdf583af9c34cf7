/// Where each work sits under its artist: artists in index order, each with its works in
/// object-number order.
///
/// Invariants, kept by ``apply(_:)``: an artist's entries are sorted by object number (by
/// Unicode scalars); `order` holds exactly the artists that have works, in
/// ``ArtistIndex/artistOrder(_:_:_:_:)``; `artistOf` names, for each work, the artist whose
/// entries hold it; the status counts are those of all entries.
struct ArtistShelves: Sendable {
    typealias Entry = LiveArtistIndex.Entry
    typealias Status = LiveArtistIndex.Status

    /// Works leaving and joining artists, gathered while placing, applied at once.
    struct Changes {
        fileprivate var removed: [Int32: Set<String>] = [:]
        fileprivate var added: [Int32: [Entry]] = [:]
    }

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

    mutating func reserveCapacity(works: Int) {
        artistOf.reserveCapacity(works)
    }

    var artistCount: Int { order.count }
    var workCount: Int { artistOf.count }
    func count(of status: Status) -> Int { statusCounts[Int(status.rawValue)] }

    /// The artists with works, in index order, with how many each has.
    var artists: [(name: String, workCount: Int)] {
        order.map { (artistNames[Int($0)], entries[Int($0)].count) }
    }

    /// The works of the artist at `index` of ``artists``.
    func entries(ofArtistAt index: Int) -> [Entry] { entries[Int(order[index])] }

    /// How many works `artist` has now.
    func workCount(of artist: String) -> Int { artistNumber[artist].map { entries[Int($0)].count } ?? 0 }

    /// Where `objectNumber`'s work sits now, if it is in the index.
    func placed(_ objectNumber: String) -> (artist: Int32, entry: Entry)? {
        guard let artist = artistOf[objectNumber] else { return nil }
        let list = entries[Int(artist)]
        var (low, high) = (0, list.count)
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(list[middle].objectNumber, objectNumber) { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low].objectNumber == objectNumber ? (artist, list[low]) : nil
    }

    /// The number of the artist the works of `maker` (as the source writes it) are grouped under.
    mutating func artistNumber(ofMaker maker: String) -> Int32 {
        if let number = makerArtists[maker] { return number }
        let number = artistNumber(of: ArtistIndex.groupName(maker))
        makerArtists[maker] = number
        return number
    }

    /// Moves `objectNumber`'s work from `old` to `new` (either may be nil): its artist and
    /// status count at once, its entry when `changes` are applied.
    mutating func move(
        _ objectNumber: String, from old: (artist: Int32, entry: Entry)?, to new: (artist: Int32, entry: Entry)?,
        changes: inout Changes
    ) {
        if let old {
            changes.removed[old.artist, default: []].insert(objectNumber)
            statusCounts[Int(old.entry.status.rawValue)] -= 1
        }
        artistOf[objectNumber] = new?.artist
        if let new {
            changes.added[new.artist, default: []].append(new.entry)
            statusCounts[Int(new.entry.status.rawValue)] += 1
        }
    }

    /// Puts each touched artist's works in order, and the artists too. Returns each artist whose
    /// works changed, with its count before.
    mutating func apply(_ changes: Changes) -> [String: Int] {
        var touched: [Int32: Int] = [:]
        for artist in changes.removed.keys { touched[artist] = entries[Int(artist)].count }
        for artist in changes.added.keys { touched[artist] = entries[Int(artist)].count }
        var left: [Int32] = []
        var arrived: [Int32] = []
        for (artist, before) in touched {
            let gone = changes.removed[artist] ?? []
            let kept =
                gone.isEmpty ? entries[Int(artist)] : entries[Int(artist)].filter { !gone.contains($0.objectNumber) }
            entries[Int(artist)] = []
            entries[Int(artist)] = Self.merge(kept, (changes.added[artist] ?? []).sorted(by: Self.entryOrder))
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
