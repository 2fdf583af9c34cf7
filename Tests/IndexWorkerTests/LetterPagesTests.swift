import Testing

@testable import IndexWorker

@Suite("Letter pages and the lists of every artist made again only where they changed")
struct LetterPagesTests {
    /// 12,000 artists under A (several pages), 500 under B, 100 under É, 50 under Other.
    static func content() -> IndexContent {
        let names =
            (0..<12_000).map { "Aa \($0)" } + (0..<500).map { "B \($0)" } + (0..<100).map { "Émile \($0)" }
            + (0..<50).map { "9 \($0)" }
        let artists = names.enumerated().map { IndexContent.Artist(name: $1, workCount: 1 + $0 % 7) }
        return IndexContent(
            totals: ArtistIndex.Totals(
                artists: artists.count, works: artists.map(\.workCount).reduce(0, +), pages: 1, failedPages: 0,
                thumbnails: [:]),
            crawls: [], artists: artists, works: { _, _ in [] })
    }

    /// Each artist's entry, kept while its count stays, as ``AssembledArtists`` keeps them; in
    /// the content's order, as the files rendered afresh take it.
    final class Entries {
        private var kept: [String: ArtistEntry] = [:]

        func entries(_ content: IndexContent) -> [ArtistEntry] {
            content.artists.map { artist in
                if let entry = kept[artist.name], entry.works == artist.workCount { return entry }
                let entry = ArtistEntry(
                    name: artist.name, works: artist.workCount, key: ArtistIndex.collationKey(artist.name),
                    shards: .one)
                kept[artist.name] = entry
                return entry
            }
        }
    }

    /// The shared files through `pages` and `lists`, checked against rendering them all afresh.
    static func files(
        _ content: IndexContent, _ entries: Entries, through pages: LetterPages, _ lists: ArtistLists
    ) -> [String: [UInt8]] {
        let files = IndexLayout.sharedFiles(
            totals: content.totals, crawls: content.crawls, artists: entries.entries(content), letterPages: pages,
            artistLists: lists)
        let afresh = IndexLayout.sharedFiles(for: content, plan: IndexLayout.Plan(content))
        let differing = Set(files.keys).union(afresh.keys).filter { files[$0] != afresh[$0] }
        #expect(differing.isEmpty, "not the bytes rendered afresh: \(differing.sorted())")
        return files
    }

    static func letterPages(_ files: [String: [UInt8]]) -> [String: [UInt8]] {
        files.filter { $0.key.hasPrefix("gallery/letter-") }
    }

    static func changed(_ before: [String: [UInt8]], _ after: [String: [UInt8]]) -> [String] {
        letterPages(after).filter { before[$0.key] != $0.value }.keys.sorted()
    }

    @Test(
        "a count changed or a new artist makes its page and its run of the lists again; a letter gone every frame; bytes as afresh"
    )
    func onlyChangedPages() throws {
        let (pages, lists, entries) = (LetterPages(), ArtistLists(), Entries())
        var content = Self.content()
        let first = Self.files(content, entries, through: pages, lists)
        let letterCount = Self.letterPages(first).count
        #expect(letterCount > 4 && pages.framed == letterCount && pages.composed == letterCount)
        let runs = lists.joined
        #expect(runs >= 6, "\(runs) runs")
        let aPages = first.keys.filter { $0.hasPrefix("gallery/letter-a") }.count
        #expect(aPages >= 3, "A on \(aPages) pages")

        let again = Self.files(content, entries, through: pages, lists)
        #expect(pages.framed == 0 && pages.composed == 0 && lists.joined == 0, "nothing changed")
        #expect(Self.changed(first, again).isEmpty)

        // The 6,000th A: its page's list alone.
        content.artists[6_000].workCount += 1
        let counted = Self.files(content, entries, through: pages, lists)
        #expect(pages.framed == 0 && pages.composed == 1 && lists.joined == 1)
        let countedPath = try #require(Self.changed(again, counted).first)
        #expect(Self.changed(again, counted).count == 1)
        #expect(String(decoding: try #require(counted[countedPath]), as: UTF8.self).contains(">Aa 6000</a>"))

        // A new B, last under B: B's page (its title names its last artist only on a letter of
        // several pages; its frame is kept by what it shows).
        content.artists.insert(IndexContent.Artist(name: "Bz", workCount: 3), at: 12_500)
        let withB = Self.files(content, entries, through: pages, lists)
        #expect(pages.composed == 1 && Self.changed(counted, withB) == ["gallery/letter-b.html"])
        #expect(lists.joined == 1)

        // A new A between others: the page it is on, rarely one more, and no other letter's.
        content.artists.insert(IndexContent.Artist(name: "Aa 7000 b", workCount: 2), at: 7_001)
        let withA = Self.files(content, entries, through: pages, lists)
        let changedByA = Self.changed(withB, withA)
        #expect((1...2).contains(changedByA.count) && changedByA.allSatisfy { $0.hasPrefix("gallery/letter-a") })
        #expect(pages.composed == changedByA.count && (1...2).contains(lists.joined))

        // Every Other gone: its page goes, the rest show one letter fewer in their links.
        content.artists.removeAll { $0.name.hasPrefix("9") }
        let fewer = Self.files(content, entries, through: pages, lists)
        #expect(pages.framed == letterCount - 1)
        #expect(fewer["gallery/letter-other.html"] == nil)
    }
}
