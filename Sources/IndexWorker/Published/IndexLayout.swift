import Foundation
import ObjectStorage

/// Where an index is published: schema `artpipe-index/2` (documented in `docs/index-format.md`).
///
/// - `index.json`: the manifest — totals, crawls, and every artist with its count and the
///   buckets holding its works (``IndexManifest``). Written last.
/// - `works/<bucket>.jsonl`: one work per line, artists in index order, each artist's works
///   by object number. Together they are every work once.
/// - `index.html` and `gallery/`: the static gallery (``GallerySite``).
///
/// An artist's works are cut into slices of ``sliceSize``; each slice goes to the bucket its
/// artist's name and slice number hash to, so a page that changes one artist rewrites only
/// that artist's buckets, and no bucket grows with the largest artist.
package enum IndexLayout {
    static let schemaName = "artpipe-index/2"
    static let bucketCount = 4096
    static let sliceSize = 500
    package static let manifestPath = "index.json"
    static let worksFolder = "works"
    static let galleryFolder = "gallery"

    /// One artist's works, or up to ``sliceSize`` of them, in one bucket.
    struct Slice {
        /// The artist's position in ``IndexContent/artists``.
        var artist: Int
        var number: Int
        var works: Range<Int>
        var bucket: Int
    }

    /// Every artist's slices, and each bucket's slices in index order.
    struct Plan {
        var slices: [[Slice]]
        var buckets: [Int: [Slice]]

        /// - Parameters:
        ///   - shards: who owns the bucket files (``IndexShards``); one for a single copy.
        ///   - artists: the artists to place, nil for all; the others get no slices. Enough to
        ///     render the buckets of those artists' slices when no other artist has a slice
        ///     there: a round rendering a few buckets of a shard then places their artists only.
        init(_ index: IndexContent, shards: IndexShards = .one, only artists: Set<String>? = nil) {
            slices = []
            buckets = [:]
            slices.reserveCapacity(index.artists.count)
            for (position, artist) in index.artists.enumerated() {
                if let artists, !artists.contains(artist.name) {
                    slices.append([])
                    continue
                }
                let count = artist.workCount
                let ranges = stride(from: 0, to: max(count, 1), by: sliceSize).map { $0..<min($0 + sliceSize, count) }
                let artistSlices = ranges.enumerated().map { number, range in
                    Slice(
                        artist: position, number: number, works: range,
                        bucket: shards.bucket(of: artist.name, slice: number))
                }
                for slice in artistSlices { buckets[slice.bucket, default: []].append(slice) }
                slices.append(artistSlices)
            }
        }
    }

    /// Every file of `index`, by path relative to the output directory, its buckets laid out
    /// for `shards`; with `site`, a sitemap of its pages there (``Sitemap``) and the pages' Open
    /// Graph properties (``OpenGraph``).
    package static func files(
        for index: ArtistIndex, shards: IndexShards = .one, site: SiteAddress? = nil
    ) -> [String: [UInt8]] {
        let index = IndexContent(index)
        let plan = Plan(index, shards: shards)
        var files = sharedFiles(for: index, plan: plan, site: site)
        for bucket in plan.buckets.keys {
            for (path, bytes) in bucketFiles(bucket, of: index, plan: plan, site: site) { files[path] = bytes }
        }
        return files
    }

    /// The files of one bucket: its works and its gallery page (with `site`, its page's Open
    /// Graph properties).
    static func bucketFiles(_ bucket: Int, of index: IndexContent, plan: Plan, site: SiteAddress?) -> [(
        path: String, bytes: [UInt8]
    )] {
        let slices = plan.buckets[bucket] ?? []
        return [
            (worksPath(bucket), WorkLines.render(slices, of: index)),
            (GallerySite.bucketPath(bucket), GallerySite.bucketPage(bucket, slices, of: index, plan: plan, site: site)),
        ]
    }

    /// The files that are not a bucket's: the manifest and the gallery's front, letter and list files.
    static func sharedFiles(for index: IndexContent, plan: Plan, site: SiteAddress? = nil) -> [String: [UInt8]] {
        let artists = index.artists.enumerated().map { position, artist in
            ArtistEntry(
                name: artist.name, works: artist.workCount,
                key: artist.collationKey ?? ArtistIndex.collationKey(artist.name),
                buckets: plan.slices[position].map(\.bucket))
        }
        return sharedFiles(totals: index.totals, crawls: index.crawls, artists: artists, site: site)
    }

    /// The same files from every artist's entry, in index order.
    /// - Parameters:
    ///   - letterPages: the last call's letter pages, made again only where changed.
    ///   - artistLists: the last call's runs of the lists of every artist, joined again only where changed.
    ///   - site: where the gallery is served: a sitemap of its pages there, and the front page's
    ///     Open Graph properties; nil, neither.
    static func sharedFiles(
        totals: ArtistIndex.Totals, crawls: [ArtistIndex.Crawl], artists: [ArtistEntry],
        letterPages: LetterPages = LetterPages(), artistLists: ArtistLists = ArtistLists(), site: SiteAddress? = nil
    ) -> [String: [UInt8]] {
        let lines = artistLists.lines(of: artists)
        var files = GallerySite.sharedFiles(
            totals: totals, artists: artists, searchLines: lines.search, letterPages: letterPages, site: site)
        files[manifestPath] = IndexManifest.render(totals: totals, crawls: crawls, artists: lines.manifest)
        if let site {
            // The front page, the letter pages, then the bucket pages that hold works, each in order.
            var buckets = Set<Int>()
            for artist in artists {
                buckets.insert(artist.firstBucket)
                buckets.formUnion(artist.laterBuckets)
                // Every bucket holds works: from some thousands of artists on, the rest adds none.
                if buckets.count == bucketCount { break }
            }
            let letters = files.keys.filter { $0.hasPrefix("\(galleryFolder)/letter-") }.sorted()
            let pages = [GallerySite.frontPagePath] + letters + buckets.sorted().map(GallerySite.bucketPath)
            files.merge(Sitemap.files(site: site, pages: pages)) { first, _ in first }
        }
        return files
    }

    /// The buckets that hold, or held, a slice of `artist`'s works when it has `counts` works.
    static func buckets(of artist: String, counts: Int...) -> Set<Int> {
        let slices = counts.map { ($0 + sliceSize - 1) / sliceSize }.max() ?? 0
        return Set((0..<max(slices, 1)).map { bucket(of: artist, slice: $0) })
    }

    static func bucketName(_ bucket: Int) -> String {
        let hex = String(bucket, radix: 16)
        return String(repeating: "0", count: max(0, 3 - hex.count)) + hex
    }

    static func worksPath(_ bucket: Int) -> String { "\(worksFolder)/\(bucketName(bucket)).jsonl" }

    /// FNV-1a over the name's UTF-8, a zero byte and the slice number: the same everywhere, every run.
    static func bucket(of artist: String, slice: Int) -> Int {
        // The zero byte, then the slice's decimal digits: no array made (asked for every artist of
        // a shard in every round that renders it).
        var hash = nameHash(artist) &* 0x100_0000_01b3
        for byte in String(slice).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(hash % UInt64(bucketCount))
    }

    static func nameHash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The id of an artist's slice in its bucket's gallery page.
    static func anchor(of artist: String, slice: Int) -> String {
        // `a`, the hash in 16 hex digits, `-`, the slice: written by hand, asked for every artist.
        var bytes: [UInt8] = [UInt8(ascii: "a")]
        bytes.reserveCapacity(24)
        let hash = nameHash(artist)
        for shift in stride(from: 60, through: 0, by: -4) {
            bytes.append(hexDigits[Int((hash >> UInt64(shift)) & 0xf)])
        }
        bytes.append(UInt8(ascii: "-"))
        return String(decoding: bytes, as: UTF8.self) + String(slice)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The index's files in `output` now, with their versions: what a publish compares with,
    /// and removes when no longer part of the index. Only objects named as the index names its
    /// own count: a user's `gallery/custom.css`, or a folder, is never touched.
    package static func publishedVersions(in output: any OutputStore) throws -> [String: OutputVersion] {
        var versions: [String: OutputVersion] = [:]
        // The top's own files (the manifest, the front page, the sitemap), not its folders':
        // one listing of a bucket, its delimiter leaving `thumbs/` out.
        for folder in [worksFolder, galleryFolder, ""] {
            versions.merge(try output.versions(in: folder)) { first, _ in first }
        }
        return versions.filter { isIndexFile($0.key) }
    }

    /// The index's files in `directory` now.
    package static func publishedPaths(in directory: URL) throws -> Set<String> {
        Set(try publishedVersions(in: FolderOutputStore(directory: directory)).keys)
    }

    /// Whether `path` is one the index writes: the manifest, the front page, a bucket's
    /// `works/<bucket>.jsonl` and `gallery/<bucket>.html`, a letter's pages, the style sheet
    /// and the artist list.
    static func isIndexFile(_ path: String) -> Bool {
        switch path {
        case manifestPath, GallerySite.frontPagePath, GallerySite.stylePath, GallerySite.artistListPath: return true
        default: break
        }
        if Sitemap.isSitemapFile(path) { return true }
        // A bucket's two files: the one rule for their names (asked of every file of every listing).
        if bucket(ofFile: path) != nil { return true }
        // Else only a letter's page: `gallery/letter-<letter>[-<page>].html`.
        let prefix = "\(galleryFolder)/letter-"
        guard path.hasPrefix(prefix), path.hasSuffix(".html") else { return false }
        let letter = path.utf8.dropFirst(prefix.utf8.count).dropLast(".html".utf8.count)
        return !letter.isEmpty && letter.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
    }
}
