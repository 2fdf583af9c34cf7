import ArtpipeSupport

/// One artist's entries in the files that list every artist: its line of `index.json`, of
/// `gallery/artists.js` and of its letter page. Each depends on the artist's name, count and
/// buckets alone, so an assembly keeps them (``AssembledArtists``) and renders again only the
/// artists that changed; the files are these entries, in index order, in their frames. A class:
/// every assembly hands every artist's entry around, and copying seven references each cost a
/// tenth of an assembly.
final class ArtistEntry: Sendable {
    let name: String
    let works: Int
    /// The name's collation key (``ArtistIndex/collationKey(_:)``): the index order's first.
    let key: String
    /// The letter page it is on (``GallerySite/Letter/key(folded:)``).
    let letter: String
    /// `{"name":…,"works":…,"buckets":[…]}`, without the separator before it.
    let manifestLine: [UInt8]
    /// `["name",works,"link"]`, without the separator before it.
    let searchLine: [UInt8]
    /// `<li>…</li>` and its newline.
    let letterLine: [UInt8]
    /// Whether it may end its letter page (``LetterPaging``).
    let mayEndLetterPage: Bool
    /// The bucket of its first slice, and of each later one (none for most artists, so no
    /// array is made): the bucket pages that show it (``Sitemap``).
    let firstBucket: Int
    let laterBuckets: [Int]

    /// - Parameter buckets: the bucket of each slice of its works (``IndexLayout``), at least one.
    init(name: String, works: Int, key: String, buckets: [Int]) {
        (self.name, self.works, self.key) = (name, works, key)
        (firstBucket, laterBuckets) = (buckets[0], buckets.count > 1 ? Array(buckets.dropFirst()) : [])
        letter = GallerySite.Letter.key(folded: key)
        manifestLine = IndexManifest.artistLine(name: name, works: works, buckets: buckets)
        let link = GallerySite.link(bucket: buckets[0], of: name)
        searchLine = GallerySite.searchLine(name: name, works: works, link: link)
        letterLine = GallerySite.letterLine(name: name, works: works, link: link)
        mayEndLetterPage = LetterPaging.mayEnd(name)
    }

    /// The entry of an artist with `works` works under `shards`' layout.
    convenience init(name: String, works: Int, key: String, shards: IndexShards) {
        let slices = max((works + IndexLayout.sliceSize - 1) / IndexLayout.sliceSize, 1)
        self.init(name: name, works: works, key: key, buckets: (0..<slices).map { shards.bucket(of: name, slice: $0) })
    }

    /// Whether `self` comes before `other` in index order.
    func precedes(_ other: ArtistEntry) -> Bool {
        ArtistIndex.artistOrder(name, key, other.name, other.key)
    }
}

extension Collection<ArtistEntry> {
    /// Whether both hold the same entries, the very same objects, in the same order: an
    /// assembly keeps an artist's entry while its lines stay the same (``AssembledArtists``).
    func isIdentical(to other: some Collection<ArtistEntry>) -> Bool {
        count == other.count && zip(self, other).allSatisfy { $0 === $1 }
    }
}
