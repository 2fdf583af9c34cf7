import Foundation
import PipelineContract

/// Works grouped by artist, per-crawl progress and totals: what ``IndexLayout`` publishes.
///
/// Built by ``build(from:)`` as a pure function of ``IndexInputs``: the same inputs give the
/// same bytes, whatever order the pages arrived in.
package struct ArtistIndex: Codable, Sendable, Equatable {
    static let schemaName = IndexLayout.schemaName
    /// The group name of works whose maker is empty or only spaces; it sorts last.
    static let unknownArtist = ""

    var schema: String
    package var totals: Totals
    package var crawls: [Crawl]
    package var artists: [Artist]

    package struct Totals: Codable, Sendable, Equatable {
        package var artists: Int
        package var works: Int
        var pages: Int
        package var failedPages: Int
        /// Works by thumbnail status: ok, noImage, failed, pending.
        package var thumbnails: [String: Int]
    }

    package struct Crawl: Codable, Sendable, Equatable {
        package var crawlId: String
        package var source: String
        package var query: [String: String]
        /// Objects the query matches, as the source last reported.
        package var total: Int
        package var pagesIndexed: [Int]
        /// Pages below the highest one seen that are neither indexed nor failed.
        var gaps: [Int]
        package var failedPages: [FailedPage]
    }

    package struct FailedPage: Codable, Sendable, Equatable {
        package var page: Int
        package var reason: String
    }

    package struct Artist: Codable, Sendable, Equatable {
        /// As the source writes it; empty for an unknown maker.
        package var name: String
        package var works: [Work]
    }

    package struct Work: Codable, Sendable, Hashable {
        package var objectNumber: String
        package var title: String
        var pageId: String
        package var page: Int
        var imageURL: String?
        /// ok, noImage, failed, or pending (its page's thumbnails have not arrived yet).
        package var thumbnailStatus: String
        package var thumbnailReason: String?
        /// Paths relative to the output directory, by size: the JPEGs, or the WebPs where no
        /// JPEG was made (``paths(of:)``).
        package var thumbnails: [String: String]
        /// The source's record id and the version's datestamp, for versioned sources.
        package var recordId: String?
        package var datestamp: String?
        /// What the record says of the work beyond what the index orders by (``Artwork``'s
        /// fields of the same names), taken by ``described(by:)``.
        package var date: String? = nil
        package var years: YearRange? = nil
        package var landingPage: String? = nil
        package var rights: String? = nil
        package var iiifManifest: String? = nil
        package var iiifImageService: String? = nil
        /// What a page shows until the thumbnail loads (``PageThumbnails/Item/colour``): only
        /// with an `ok` thumbnail's files, and only as ``placeholder(_:)`` takes it.
        package var colour: String? = nil
        /// The WebPs made beside the JPEGs of `thumbnails`, by size; nil where there are none.
        package var webpThumbnails: [String: String]? = nil

        /// `colour` if it is `#` and six hex digits, as ThumbWorker writes it; nil for anything
        /// else a message might carry, which could say more than a colour where a page puts it
        /// (a style attribute).
        static func placeholder(_ colour: String?) -> String? {
            guard let colour else { return nil }
            let digits = colour.utf8.dropFirst()
            guard colour.utf8.first == UInt8(ascii: "#"), digits.count == 6,
                digits.allSatisfy({
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0 | 0x20)
                })
            else { return nil }
            return colour
        }

        /// `files`' paths by size: the JPEGs as ``thumbnails`` and the WebPs (a path ending in
        /// `.webp`) as ``webpThumbnails``; or the WebPs as ``thumbnails`` where there is no JPEG.
        /// The first file of a size and format is the one shown.
        static func paths(of files: [(size: Int, path: String)]) -> (
            thumbnails: [String: String], webp: [String: String]?
        ) {
            func bySize(_ files: [(size: Int, path: String)]) -> [String: String] {
                Dictionary(files.map { (String($0.size), $0.path) }, uniquingKeysWith: { first, _ in first })
            }
            let webp = files.filter { $0.path.hasSuffix(".webp") }
            let others = files.filter { !$0.path.hasSuffix(".webp") }
            if others.isEmpty { return (bySize(webp), nil) }
            return (bySize(others), webp.isEmpty ? nil : bySize(webp))
        }
    }

    /// The order-insensitive key artists are sorted by: case and diacritics folded.
    package static func collationKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    package static func build(from inputs: IndexInputs) -> ArtistIndex {
        // Each objectNumber once: its lowest page wins; pageId breaks ties across crawls. Positions
        // play no part: the API's artist sort orders works of one artist differently on each request.
        var chosen: [String: (page: Page, artwork: Artwork)] = [:]
        for page in inputs.pages.values {
            for artwork in page.artworks where artwork.recordId == nil || artwork.datestamp == nil {
                if let current = chosen[artwork.objectNumber],
                    (current.page.page, current.page.pageId) <= (page.page, page.pageId)
                {
                    continue
                }
                chosen[artwork.objectNumber] = (page, artwork)
            }
        }
        // Versioned works replace them: each record's newest version, unless deleted.
        for (objectNumber, version) in RecordVersions.latest(of: inputs.pages.values) {
            chosen[objectNumber] = version
        }

        // Items by page and object number, so each work's lookup is constant time.
        let items = inputs.thumbnails.mapValues { $0.positions() }
        var groups: [String: [Work]] = [:]
        var statusCounts = ["ok": 0, "noImage": 0, "failed": 0, "pending": 0]
        var groupNames: [String: String] = [:]
        for (page, artwork) in chosen.values {
            let (name, work) = work(
                artwork, of: page, thumbnails: inputs.thumbnails[page.pageId],
                item: items[page.pageId]?[artwork.objectNumber], groupNames: &groupNames)
            statusCounts[work.thumbnailStatus, default: 0] += 1
            groups[name, default: []].append(work)
        }
        // Each name's collation key once, not once per comparison: folding is the costly part.
        let artists = groups.map { name, works in
            (
                key: collationKey(name),
                artist: Artist(
                    name: name,
                    works: works.sorted {
                        scalarsPrecede($0.objectNumber, $1.objectNumber)
                    })
            )
        }.sorted { artistOrder($0.artist.name, $0.key, $1.artist.name, $1.key) }.map(\.artist)

        return ArtistIndex(
            schema: schemaName,
            totals: Totals(
                artists: artists.count, works: chosen.count, pages: inputs.pages.count,
                failedPages: inputs.failedPages.keys.filter { inputs.pages[$0] == nil }.count, thumbnails: statusCounts),
            crawls: crawls(from: inputs), artists: artists)
    }

    /// The work `artwork` of `page` is in the index, with its thumbnails' `item`; grouped under
    /// the returned artist name.
    static func work(
        _ artwork: Artwork, of page: Page, thumbnails: IndexedThumbnails?, item: Int?,
        groupNames: inout [String: String]
    ) -> (artist: String, work: Work) {
        (groupName(artwork.artist, cache: &groupNames), Work(artwork, of: page, thumbnails: thumbnails, item: item))
    }

    /// ``groupName(_:)``, looked up in `cache` first, since trimming costs more than a lookup
    /// and a maker has many works.
    static func groupName(_ artist: String, cache: inout [String: String]) -> String {
        if let name = cache[artist] { return name }
        let name = groupName(artist)
        cache[artist] = name
        return name
    }

    /// The name works of `artist` are grouped under: trimmed of spaces, in ``CanonicalText``.
    /// Swift's `String` compares canonically equivalent spellings as equal while the index
    /// orders and stores names by their bytes; in one spelling the two agree, so an artist's
    /// count and its works always come from the same group.
    static func groupName(_ artist: String) -> String {
        CanonicalText.of(artist.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// By collation key; the exact name breaks ties; the unknown maker last.
    package static func artistOrder(_ a: String, _ keyA: String, _ b: String, _ keyB: String) -> Bool {
        if a.isEmpty != b.isEmpty { return b.isEmpty }
        if keyA != keyB { return scalarsPrecede(keyA, keyB) }
        return scalarsPrecede(a, b)
    }

    /// Whether `a`'s Unicode scalars sort before `b`'s: the one order of names, keys and object
    /// numbers. Read from the UTF-8 bytes, which keep the scalars' order: sorting an assembly's
    /// artists scalar by scalar had a tenth of the worker's CPU through new pages (perf).
    static func scalarsPrecede(_ a: String, _ b: String) -> Bool {
        scalarsOrder(a, b) < 0
    }

    /// `a`'s Unicode scalars against `b`'s, as `memcmp` says it: below zero when `a` sorts first,
    /// zero for the same scalars, above zero when `b` does (``scalarsPrecede(_:_:)``).
    static func scalarsOrder(_ a: String, _ b: String) -> Int {
        var (a, b) = (a, b)
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0, case let order = memcmp(x.baseAddress!, y.baseAddress!, common), order != 0 {
                    return Int(order)
                }
                return x.count - y.count
            }
        }
    }

    /// The crawls of the pages and failures: the one rule, ``IndexAssembly/crawls(_:)``, which
    /// the assembled index applies to its page partitions' summaries.
    static func crawls(from inputs: IndexInputs) -> [Crawl] {
        let pages = inputs.pages.values.map {
            PagesSummary.Crawl(
                crawlId: $0.crawlId, source: $0.source, query: $0.query, pageId: $0.pageId, page: $0.page,
                total: $0.total, failure: nil)
        }
        let failures = inputs.failedPages.values.filter { inputs.pages[$0.request.pageId] == nil }.map {
            PagesSummary.Crawl(
                crawlId: $0.request.crawlId, source: $0.request.source, query: $0.request.query,
                pageId: $0.request.pageId, page: $0.request.page, total: 0, failure: $0.reason)
        }
        return IndexAssembly.crawls(pages + failures)
    }
}

extension ArtistIndex.Work {
    /// The work `artwork` of `page` is in the index, with the item at `item` of its thumbnails.
    init(_ artwork: Artwork, of page: Page, thumbnails: IndexedThumbnails?, item: Int?) {
        let item = item.flatMap { item in thumbnails.map { (thumbnails: $0, item: item) } }
        self.init(
            objectNumber: artwork.objectNumber, title: artwork.title, pageId: page.pageId, page: page.page,
            imageURL: artwork.imageURL,
            thumbnailStatus: item.map { $0.thumbnails.status($0.item).rawValue } ?? "pending",
            thumbnailReason: item.flatMap { $0.thumbnails.reason($0.item) },
            thumbnails: [:], recordId: artwork.recordId, datestamp: artwork.datestamp)
        (self.thumbnails, webpThumbnails) = Self.paths(of: item.map { $0.thumbnails.files($0.item) } ?? [])
        if let item, item.thumbnails.status(item.item) == .ok {
            colour = Self.placeholder(item.thumbnails.colour(item.item))
        }
        self = described(by: artwork)
    }
}
