import ArtpipeSupport

/// The gallery: a static site that opens as files, without a server, at any size of index.
///
/// - `index.html`: totals, the letters A–Z with their artist counts, and a search box over
///   every artist's name (it loads `gallery/artists.js` when first used, and works offline).
/// - `gallery/letter-<x>.html`: the artists of one letter with their counts, about 2,000 a
///   page (``LetterPaging``); `other` holds names that start with no letter A–Z.
/// - `gallery/<bucket>.html`: the works of one bucket's artist slices (``IndexLayout``),
///   thumbnails loaded lazily; a slice links to the artist's next one.
///
/// So every artist is two clicks from the front page (letter, then artist) or one search,
/// and no page grows with the index: a bucket holds about a thousand works at a million.
package enum GallerySite {
    static let frontPagePath = "index.html"
    static let stylePath = "\(IndexLayout.galleryFolder)/style.css"
    static let artistListPath = "\(IndexLayout.galleryFolder)/artists.js"
    /// The thumbnail size shown, when the index has it.
    static let preferredSize = "200"

    static func bucketPath(_ bucket: Int) -> String {
        "\(IndexLayout.galleryFolder)/\(IndexLayout.bucketName(bucket)).html"
    }

    /// A relative URL of the file at `path` (relative itself), percent-encoded: browsers, static
    /// servers and S3 websites decode a URL's path before looking for the file, and thumbnail
    /// names hold `%XX` of their own. Every `href` and `src` the gallery writes is one of these
    /// (an artist's link, ``link(slice:of:)``, the same bytes made without the encoder).
    static func link(_ path: String, fragment: String? = nil) -> String {
        PercentEncoding.path(path) + (fragment.map { "#" + PercentEncoding.component($0) } ?? "")
    }

    /// From a gallery page: where one slice of an artist's works is.
    static func link(slice: IndexLayout.Slice, of artist: String) -> String {
        link(bucket: slice.bucket, of: artist, slice: slice.number)
    }

    /// From a gallery page: where the slice of an artist's works in `bucket` is (its first by default).
    /// Asked for every artist an assembly renders: its parts are hex digits, a dot, letters and
    /// a dash, which ``link(_:fragment:)`` leaves as they are, so they are not looked at again.
    static func link(bucket: Int, of artist: String, slice: Int = 0) -> String {
        IndexLayout.bucketName(bucket) + ".html#" + IndexLayout.anchor(of: artist, slice: slice)
    }

    static func displayName(_ name: String) -> String { name.isEmpty ? "Unknown maker" : name }

    /// The front page, letter pages, artist list and style sheet: everything but the buckets.
    /// - Parameters:
    ///   - artists: every artist's entry, in index order.
    ///   - searchLines: their lines of `gallery/artists.js`, in runs (``ArtistLists``).
    ///   - letterPages: the last call's letter pages, made again only where changed.
    ///   - site: where the gallery is served: the front and letter pages' Open Graph properties name it.
    static func sharedFiles(
        totals: ArtistIndex.Totals, artists: [ArtistEntry], searchLines: [[UInt8]],
        letterPages: LetterPages = LetterPages(), site: SiteAddress? = nil
    ) -> [String: [UInt8]] {
        let letters = Letter.group(artists)
        var files: [String: [UInt8]] = [
            frontPagePath: frontPage(totals: totals, letters: letters, site: site),
            stylePath: Array(style.utf8),
            artistListPath: artistList(searchLines),
        ]
        let keys = letters.map(\.key)
        var pages: [String: LetterPages.Page] = [:]
        for letter in letters {
            let slices = LetterPaging.pages(letter.artists) { artists[$0].mayEndLetterPage }
            for (number, page) in slices.enumerated() {
                // Named in the title only on a letter of several pages.
                let (first, last) =
                    slices.count > 1
                    ? (artists[page[page.startIndex]].name, artists[page[page.endIndex - 1]].name) : ("", "")
                let frame = LetterPages.Frame(
                    letters: keys, letter: letter.key, page: number, pageCount: slices.count, first: first, last: last,
                    site: site?.base)
                pages[letter.path(page: number)] = LetterPages.Page(
                    frame: frame,
                    renderFrame: {
                        letterPageFrame(
                            letter, page: number, of: slices.count, from: first, to: last, letters: letters, site: site)
                    },
                    positions: page, entries: artists)
            }
        }
        files.merge(letterPages.pages(pages)) { first, _ in first }
        return files
    }
}
