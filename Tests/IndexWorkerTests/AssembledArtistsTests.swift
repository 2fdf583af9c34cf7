import Testing

@testable import IndexWorker

@Suite("The artists an assembly keeps: placed and rendered again only where they changed")
struct AssembledArtistsTests {
    static let shards = IndexShards(count: 4)

    /// Names across letters, accents, scripts, the unknown maker, and names that differ only
    /// by case or accent (equal keys).
    static let pool: [String] =
        (0..<60).map { "Painter \($0)" }
        + [
            "", "émile", "Emile", "Émile", "emile", "Zeeman", "zeeman", "Øystein", "葛飾北斎", "9 Masters", "\"Quoted\"",
            "Ångström", "a", "A", "ab", "ß", "Ｂoch",
        ]

    /// Every shard's summary of `counts`, its artists in index order as a shard's owner lists
    /// them, or in any order (`shuffled`: the keeper's result does not rely on it, only its work).
    static func summaries(_ counts: [String: Int], order rng: inout SplitMix, shuffled: Bool = true)
        -> [ShardSummary]
    {
        (0..<shards.count).map { shard in
            let artists = counts.filter { shards.shard(ofArtist: $0.key) == shard }
                .map { ShardSummary.Artist(name: $0.key, works: $0.value) }.shuffled(using: &rng)
            let listed =
                shuffled
                ? artists
                : sorted([ShardSummary(shard: shard, artists: artists, thumbnails: [:])]).map {
                    ShardSummary.Artist(name: $0.name, works: $0.works)
                }
            return ShardSummary(shard: shard, artists: listed, thumbnails: [:])
        }
    }

    /// What a sort of every artist gives.
    static func sorted(_ summaries: [ShardSummary]) -> [(name: String, works: Int)] {
        summaries.flatMap(\.artists).map { (name: $0.name, works: $0.works, key: ArtistIndex.collationKey($0.name)) }
            .sorted { ArtistIndex.artistOrder($0.name, $0.key, $1.name, $1.key) }.map { ($0.name, $0.works) }
    }

    @Test(
        "through 300 random changes (counts, artists who come and go, a shard's summary missing), the order and lines a sort and a fresh render give",
        arguments: [1, 2, 3] as [UInt64], [true, false])
    func randomChanges(seed: UInt64, shuffled: Bool) {
        var rng = SplitMix(seed: seed)
        let kept = AssembledArtists()
        var counts: [String: Int] = [:]
        for name in Self.pool where rng.next(3) > 0 { counts[name] = 1 + rng.next(1_200) }
        for step in 0..<300 {
            var summaries = Self.summaries(counts, order: &rng, shuffled: shuffled)
            if step % 37 == 5 { summaries.remove(at: rng.next(summaries.count)) }
            let entries = kept.entries(of: summaries, layout: Self.shards)
            let expected = Self.sorted(summaries)
            #expect(entries.map(\.name) == expected.map(\.name), "step \(step): order")
            #expect(entries.map(\.works) == expected.map(\.works), "step \(step): counts")
            let afresh = AssembledArtists().entries(of: summaries, layout: Self.shards)
            let differing = zip(entries, afresh).filter {
                ($0.manifestLine, $0.searchLine, $0.letterLine, $0.letter) != (
                    $1.manifestLine, $1.searchLine, $1.letterLine, $1.letter
                )
            }
            #expect(differing.isEmpty, "step \(step): \(differing.map(\.0.name)) not as rendered afresh")
            // Next: a few counts change (across a slice's edge too), one artist comes or goes.
            for _ in 0..<(1 + rng.next(3)) {
                guard let name = counts.keys.randomElement(using: &rng) else { break }
                counts[name] = max(0, counts[name]! + [-1, 1, 499, -499][rng.next(4)])
            }
            let name = Self.pool[rng.next(Self.pool.count)]
            counts[name] = counts[name] == nil ? 1 + rng.next(700) : nil
        }
    }

    @Test("nothing changed renders nothing; a count renders one; the second of two layouts starts afresh")
    func rendersOnlyChanges() {
        var rng = SplitMix(seed: 9)
        let kept = AssembledArtists()
        var counts = Dictionary(uniqueKeysWithValues: Self.pool.enumerated().map { ($1, 1 + $0) })
        _ = kept.entries(of: Self.summaries(counts, order: &rng, shuffled: false), layout: Self.shards)
        #expect(kept.rendered == Self.pool.count)
        _ = kept.entries(of: Self.summaries(counts, order: &rng, shuffled: false), layout: Self.shards)
        #expect(kept.rendered == 0)
        counts["Zeeman"]! += 1
        counts["Painter 7"] = nil
        counts["Painter 70"] = 3
        let entries = kept.entries(of: Self.summaries(counts, order: &rng, shuffled: false), layout: Self.shards)
        #expect(kept.rendered == 2, "the new count and the artist who came")
        #expect(entries.count == Self.pool.count)
        let one = kept.entries(
            of: [ShardSummary(shard: 0, artists: [.init(name: "Zeeman", works: 1)], thumbnails: [:])], layout: .one)
        #expect(kept.rendered == 1 && one.map(\.name) == ["Zeeman"])
    }

    @Test("a name a summary lists twice is one artist, with the first count, however often it comes back")
    func nameListedTwice() {
        let kept = AssembledArtists()
        let artists: [ShardSummary.Artist] = [.init(name: "Appel", works: 2), .init(name: "Zeeman", works: 5)]
        _ = kept.entries(of: [ShardSummary(shard: 0, artists: artists, thumbnails: [:])], layout: .one)
        for twice in [
            [artists[0], artists[1], .init(name: "Zeeman", works: 9)],
            [artists[0], .init(name: "Zeeman", works: 5), .init(name: "Appel", works: 7), artists[1]],
            [.init(name: "Zeeman", works: 5), artists[0], .init(name: "Zeeman", works: 1)],
        ] {
            let entries = kept.entries(of: [ShardSummary(shard: 0, artists: twice, thumbnails: [:])], layout: .one)
            #expect(entries.map(\.name) == ["Appel", "Zeeman"], "\(twice)")
            #expect(entries.map(\.works) == [2, 5], "\(twice)")
        }
    }
}
