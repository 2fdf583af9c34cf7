import Testing

@testable import IndexWorker

@Suite("Letter pages break where the names say, so a new artist changes its own page")
struct LetterPagingTests {
    /// `count` names in index order, as the benchmark's collection names its artists.
    static func names(_ count: Int, prefix: String = "Artist") -> [String] {
        (0..<count).map { "\(prefix) \($0)" }.sorted { ArtistIndex.scalarsPrecede($0, $1) }
    }

    static func pages(_ names: [String]) -> [[String]] {
        LetterPaging.pages(names, mayEnd: LetterPaging.mayEnd).map(Array.init)
    }

    @Test("every artist once, in order; a page holds 500 to 6,000 but a letter's only page")
    func bounds() {
        for count in [1, 499, 500, 2_000, 6_500, 30_000, 108_109] {
            let names = Self.names(count)
            let pages = Self.pages(names)
            #expect(pages.flatMap { $0 } == names, "\(count)")
            if pages.count > 1 {
                #expect(
                    pages.allSatisfy { (LetterPaging.minimum...LetterPaging.maximum).contains($0.count) },
                    "\(count): \(pages.map(\.count))")
            }
        }
        // About 2,000 a page: 108,109 artists (the benchmark's 4 million works) on 40 to 80 pages.
        let many = Self.pages(Self.names(108_109)).count
        #expect((40...80).contains(many), "\(many) pages")
        // Breaks that no name picks: every page full.
        let unpicked = LetterPaging.pages(Array(0..<13_000)) { _ in false }.map(\.count)
        #expect(unpicked == [6_000, 6_000, 1_000])
        let picked = LetterPaging.pages(Array(0..<1_300)) { _ in true }.map(\.count)
        #expect(picked == [500, 800], "a last page under 500 joins the one before")
    }

    @Test("an artist who comes changes the page it is on, now and then one more; rarely the page count")
    func newArtistChangesItsPage() {
        var names = Self.names(30_000)
        var pages = Self.pages(names)
        var (recounted, changes) = (0, [Int]())
        for serial in 0..<300 {
            let name = "Artist \(serial * 97 + 13) b"
            let position = names.firstIndex { !ArtistIndex.scalarsPrecede($0, name) } ?? names.count
            names.insert(name, at: position)
            let next = Self.pages(names)
            defer { pages = next }
            guard next.count == pages.count else {
                recounted += 1
                continue
            }
            let changed = zip(pages, next).filter { $0 != $1 }.count
            #expect(next.contains { $0.contains(name) && !pages.contains($0) })
            changes.append(changed)
        }
        #expect(changes.allSatisfy { (1...3).contains($0) }, "pages changed: \(changes.sorted().suffix(5))")
        #expect(changes.filter { $0 == 1 }.count * 10 >= changes.count * 9, "mostly its own page alone")
        #expect(recounted <= 15, "\(recounted) of 300 new artists changed the page count")
    }
}
