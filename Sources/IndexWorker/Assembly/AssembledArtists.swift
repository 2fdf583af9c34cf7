import ArtpipeSupport
import Synchronization

/// The artists of the last assembly in index order, each with its entries in the shared files
/// (``ArtistEntry``). A new page changes a few artists of a few shards, yet sorting and rendering
/// every artist again took most of an assembly (half a second at 4 million works): the next call
/// renders only the artists that came or whose count changed, and places those that came in the
/// kept order. Holds the last call's artists only.
package final class AssembledArtists: Sendable {
    /// An artist as its shard's summary names it (once per shard).
    private struct Listed: Hashable {
        var shard: Int
        var name: String
    }

    private struct State {
        var layout: IndexShards
        /// Each shard's artists as the last call took them (each name once), with the slot of each.
        var listed: [Int: (artists: [ShardSummary.Artist], slots: [Int])] = [:]
        var slots: [Listed: Int] = [:]
        /// By slot; nil where free.
        var entries: [ArtistEntry?] = []
        var shardOf: [Int] = []
        /// By slot, the ``take(_:shard:)`` call that last took it: a name listed twice counts once.
        var takenIn: [Int] = []
        var takes = 0
        var free: [Int] = []
        /// Slots, in index order; artists of one name in two shards (summaries of two layouts,
        /// while they change over) by shard, as a stable sort of the shards' lists puts them.
        var order: [Int] = []
        /// The entries of ``order``, place for place: handed out whole, where making the list
        /// anew counted a reference to each of 270,271 artists every call (a seventh of an
        /// assembly at ten million works).
        var ordered: [ArtistEntry] = []

        init(layout: IndexShards) { self.layout = layout }

        func precedes(_ a: Int, _ b: Int) -> Bool {
            let (x, y) = (entries[a]!, entries[b]!)
            if x.precedes(y) { return true }
            return !y.precedes(x) && shardOf[a] < shardOf[b]
        }

        /// Takes a shard's artists as its summary lists them now. Returns the slots of the
        /// artists that came and went, of those whose count changed, and how many entries it rendered.
        ///
        /// The list is walked beside the last one, in step: a summary lists its artists in index
        /// order, so an artist in the same place is the same one, found without hashing its
        /// name (looking up each of a shard's 22,500 artists was a fifth of an assembly at ten
        /// million works). Only where the two lists part is a name looked up: one listed before,
        /// further on, means the artists up to it went. An order that changed costs more work
        /// (those taken for gone come back), never a wrong list.
        mutating func take(_ artists: [ShardSummary.Artist], shard: Int) -> (
            came: [Int], went: [Int], changed: [Int], rendered: Int
        ) {
            let (before, beforeSlots) = listed[shard] ?? ([], [])
            guard before != artists else { return ([], [], [], 0) }
            takes += 1
            var (came, went, changed, rendered) = ([Int](), [Int](), [Int](), 0)
            var (kept, keptSlots) = ([ShardSummary.Artist](), [Int]())
            kept.reserveCapacity(artists.count)
            keptSlots.reserveCapacity(artists.count)
            var next = 0
            func drop(_ index: Int) {
                slots[Listed(shard: shard, name: before[index].name)] = nil
                entries[beforeSlots[index]] = nil
                went.append(beforeSlots[index])
            }
            for artist in artists {
                let slot: Int
                if next < before.count, before[next].name == artist.name {
                    slot = beforeSlots[next]
                    next += 1
                } else if let known = slots[Listed(shard: shard, name: artist.name)] {
                    // Listed twice in this summary: the first counts.
                    guard takenIn[known] != takes else { continue }
                    while next < before.count, beforeSlots[next] != known {
                        drop(next)
                        next += 1
                    }
                    next += 1
                    slot = known
                } else {
                    let entry = ArtistEntry(
                        name: artist.name, works: artist.works, key: ArtistIndex.collationKey(artist.name),
                        shards: layout)
                    let new: Int
                    if let reused = free.popLast() {
                        new = reused
                        (entries[new], shardOf[new], takenIn[new]) = (entry, shard, takes)
                    } else {
                        new = entries.count
                        entries.append(entry)
                        shardOf.append(shard)
                        takenIn.append(takes)
                    }
                    slots[Listed(shard: shard, name: artist.name)] = new
                    came.append(new)
                    rendered += 1
                    kept.append(artist)
                    keptSlots.append(new)
                    continue
                }
                takenIn[slot] = takes
                if let entry = entries[slot], entry.works != artist.works {
                    entries[slot] = ArtistEntry(name: entry.name, works: artist.works, key: entry.key, shards: layout)
                    changed.append(slot)
                    rendered += 1
                }
                kept.append(artist)
                keptSlots.append(slot)
            }
            for index in next..<max(next, before.count) { drop(index) }
            listed[shard] = kept.isEmpty ? nil : (kept, keptSlots)
            return (came, went, changed, rendered)
        }

        /// Drops from the order the artists that went, places those that came, and puts the
        /// new entries of those whose count `changed` in their places (their order is their name's).
        mutating func reorder(came: [Int], went: [Int], changed: [Int]) {
            if !went.isEmpty {
                var gone = [Bool](repeating: false, count: entries.count)
                for slot in went { gone[slot] = true }
                var kept = 0
                for index in order.indices where !gone[order[index]] {
                    order.swapAt(kept, index)
                    ordered.swapAt(kept, index)
                    kept += 1
                }
                order.removeLast(order.count - kept)
                ordered.removeLast(ordered.count - kept)
                // Free only now: a slot taken again in the same call would still be in the order.
                free += went
            }
            if !came.isEmpty, came.count > order.count / 16 {
                // Many (the first call): one sort of all.
                order += came
                order.sort(by: precedes)
                ordered = order.map { entries[$0]! }
                return
            }
            for slot in came.sorted(by: precedes) {
                let index = place(of: slot)
                order.insert(slot, at: index)
                ordered.insert(entries[slot]!, at: index)
            }
            for slot in changed {
                guard let entry = entries[slot] else { continue }
                let index = place(of: slot)
                if index < order.count, order[index] == slot {
                    ordered[index] = entry
                } else if let index = order.firstIndex(of: slot) {
                    ordered[index] = entry
                }
            }
        }

        /// Where `slot` is, or goes, in ``order``: after every slot that precedes it.
        func place(of slot: Int) -> Int {
            order.partitioningIndex { !precedes($0, slot) }
        }
    }

    private let state: Mutex<State?> = Mutex(nil)
    private let renderedLast = Atomic<Int>(0)

    package init() {}

    /// Every artist of the summaries, in index order, with its entries under `layout`.
    func entries(of shards: [ShardSummary], layout: IndexShards) -> [ArtistEntry] {
        state.withLock { kept in
            var state = kept.flatMap { $0.layout == layout ? $0 : nil } ?? State(layout: layout)
            kept = nil
            defer { kept = state }
            var (came, went, changed, rendered) = ([Int](), [Int](), [Int](), 0)
            var taken = Set<Int>()
            for summary in shards {
                // One summary a shard: a second one of the same shard is not another shard's list.
                guard taken.insert(summary.shard).inserted else { continue }
                let change = state.take(summary.artists, shard: summary.shard)
                (came, went, changed) = (came + change.came, went + change.went, changed + change.changed)
                rendered += change.rendered
            }
            for shard in state.listed.keys where !taken.contains(shard) {
                let change = state.take([], shard: shard)
                went += change.went
            }
            state.reorder(came: came, went: went, changed: changed)
            renderedLast.store(rendered, ordering: .relaxed)
            return state.ordered
        }
    }

    /// Forgets the artists kept: the next call renders every one.
    func forget() {
        state.withLock { $0 = nil }
    }

    /// How many artists' entries the last call rendered: the others were kept.
    var rendered: Int { renderedLast.load(ordering: .relaxed) }
}
