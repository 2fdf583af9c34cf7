import Testing

@testable import IndexWorker

@Suite("Letter pages' frames rendered again only where they changed")
struct LetterPagesTests {
    /// 4,100 artists under A (three pages), 500 under B, 100 under É, 50 under Other.
    static func content() -> IndexContent {
        let names =
            (0..<4_100).map { "Aa \($0)" } + (0..<500).map { "B \($0)" } + (0..<100).map { "Émile \($0)" }
            + (0..<50).map { "9 \($0)" }
        let artists = names.enumerated().map { IndexContent.Artist(name: $1, workCount: 1 + $0 % 7) }
        return IndexContent(
            totals: ArtistIndex.Totals(
                artists: artists.count, works: artists.map(\.workCount).reduce(0, +), pages: 1, failedPages: 0,
                thumbnails: [:]),
            crawls: [], artists: artists, works: { _, _ in [] })
    }

    /// The shared files through `pages`, checked against rendering them all afresh.
    static func files(_ content: IndexContent, through pages: LetterPages) -> [String: [UInt8]] {
        let artists = content.artists.map {
            ArtistEntry(
                name: $0.name, works: $0.workCount, key: ArtistIndex.collationKey($0.name), shards: .one)
        }
        let files = GallerySite.sharedFiles(totals: content.totals, artists: artists, letterPages: pages)
        let afresh = IndexLayout.sharedFiles(for: content, plan: IndexLayout.Plan(content))
        let differing = Set(files.keys).union(afresh.keys).subtracting([IndexLayout.manifestPath])
            .filter { files[$0] != afresh[$0] }
        #expect(differing.isEmpty, "not the bytes rendered afresh: \(differing.sorted())")
        return files
    }

    @Test(
        "a count changed renders no frame; an artist who comes or goes renders every page's frame; bytes as afresh")
    func onlyChangedFrames() {
        let pages = LetterPages()
        var content = Self.content()
        let first = Self.files(content, through: pages)
        let letterPaths = first.keys.filter { $0.hasPrefix("gallery/letter-") }
        #expect(letterPaths.count == 6 && pages.framed == 6)

        _ = Self.files(content, through: pages)
        #expect(pages.framed == 0, "nothing changed")

        // The 2,500th A: on A's second page.
        content.artists[2_500].workCount += 1
        let counted = Self.files(content, through: pages)
        #expect(pages.framed == 0)
        #expect(counted.filter { first[$0.key] != $0.value }.keys.sorted().contains("gallery/letter-a-2.html"))

        // A new B changes B's count in every page's letter links.
        content.artists.insert(IndexContent.Artist(name: "Bz", workCount: 3), at: 4_600)
        _ = Self.files(content, through: pages)
        #expect(pages.framed == 6)

        // Every Other gone: its page goes, the rest show one letter fewer.
        content.artists.removeAll { $0.name.hasPrefix("9") }
        let fewer = Self.files(content, through: pages)
        #expect(pages.framed == 5)
        #expect(fewer["gallery/letter-other.html"] == nil)
    }
}
