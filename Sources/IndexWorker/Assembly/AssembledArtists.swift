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
        /// Each shard's artists as the last call's summary listed them.
        var listed: [Int: [ShardSummary.Artist]] = [:]
        var slots: [Listed: Int] = [:]
        /// By slot; nil where free.
        var entries: [ArtistEntry?] = []
        var shardOf: [Int] = []
        var free: [Int] = []
        /// Slots, in index order; artists of one name in two shards (summaries of two layouts,
        /// while they change over) by shard, as a stable sort of the shards' lists puts them.
        var order: [Int] = []

        init(layout: IndexShards) { self.layout = layout }

        func precedes(_ a: Int, _ b: Int) -> Bool {
            let (x, y) = (entries[a]!, entries[b]!)
            if x.precedes(y) { return true }
            return !y.precedes(x) && shardOf[a] < shardOf[b]
        }

        /// Takes a shard's artists as its summary lists them now. Returns the slots of the
        /// artists that came and went, and how many entries it rendered.
        mutating func take(_ artists: [ShardSummary.Artist], shard: Int) -> (came: [Int], went: [Int], rendered: Int) {
            let before = listed[shard] ?? []
            guard before != artists else { return ([], [], 0) }
            var (came, went, rendered) = ([Int](), [Int](), 0)
            var names = Set<String>(minimumCapacity: artists.count)
            for artist in artists where names.insert(artist.name).inserted {
                let listed = Listed(shard: shard, name: artist.name)
                if let slot = slots[listed] {
                    guard let entry = entries[slot], entry.works != artist.works else { continue }
                    entries[slot] = ArtistEntry(name: entry.name, works: artist.works, key: entry.key, shards: layout)
                } else {
                    let entry = ArtistEntry(
                        name: artist.name, works: artist.works, key: ArtistIndex.collationKey(artist.name),
                        shards: layout)
                    let slot: Int
                    if let reused = free.popLast() {
                        slot = reused
                        (entries[slot], shardOf[slot]) = (entry, shard)
                    } else {
                        slot = entries.count
                        entries.append(entry)
                        shardOf.append(shard)
                    }
                    slots[listed] = slot
                    came.append(slot)
                }
                rendered += 1
            }
            for artist in before where !names.contains(artist.name) {
                guard let slot = slots.removeValue(forKey: Listed(shard: shard, name: artist.name)) else { continue }
                entries[slot] = nil
                went.append(slot)
            }
            listed[shard] = artists.isEmpty ? nil : artists
            return (came, went, rendered)
        }

        /// Drops from the order the artists that went, then places those that came.
        mutating func reorder(came: [Int], went: [Int]) {
            if !went.isEmpty {
                var gone = [Bool](repeating: false, count: entries.count)
                for slot in went { gone[slot] = true }
                order.removeAll { gone[$0] }
                // Free only now: a slot taken again in the same call would still be in the order.
                free += went
            }
            guard !came.isEmpty else { return }
            if came.count > order.count / 16 {
                // Many (the first call): one sort of all.
                order += came
                order.sort(by: precedes)
                return
            }
            for slot in came.sorted(by: precedes) { order.insert(slot, keepingOrder: precedes) }
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
            var (came, went, rendered) = ([Int](), [Int](), 0)
            var taken = Set<Int>()
            for summary in shards {
                // One summary a shard: a second one of the same shard is not another shard's list.
                guard taken.insert(summary.shard).inserted else { continue }
                let change = state.take(summary.artists, shard: summary.shard)
                (came, went, rendered) = (came + change.came, went + change.went, rendered + change.rendered)
            }
            for shard in state.listed.keys where !taken.contains(shard) {
                let change = state.take([], shard: shard)
                went += change.went
            }
            state.reorder(came: came, went: went)
            renderedLast.store(rendered, ordering: .relaxed)
            return state.order.map { state.entries[$0]! }
        }
    }

    /// Forgets the artists kept: the next call renders every one.
    func forget() {
        state.withLock { $0 = nil }
    }

    /// How many artists' entries the last call rendered: the others were kept.
    var rendered: Int { renderedLast.load(ordering: .relaxed) }
}
