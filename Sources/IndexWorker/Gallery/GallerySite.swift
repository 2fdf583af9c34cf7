/// The gallery: a static site that opens as files, without a server, at any size of index.
///
/// - `index.html`: totals, the letters A–Z with their artist counts, and a search box over
///   every artist's name (it loads `gallery/artists.js` when first used, and works offline).
/// - `gallery/letter-<x>.html`: the artists of one letter with their counts, paged at
///   ``artistsPerLetterPage``; `other` holds names that start with no letter A–Z.
/// - `gallery/<bucket>.html`: the works of one bucket's artist slices (``IndexLayout``),
///   thumbnails loaded lazily; a slice links to the artist's next one.
///
/// So every artist is two clicks from the front page (letter, then artist) or one search,
/// and no page grows with the index: a bucket holds about a thousand works at a million.
package enum GallerySite {
    static let frontPagePath = "index.html"
    static let stylePath = "\(IndexLayout.galleryFolder)/style.css"
    static let artistListPath = "\(IndexLayout.galleryFolder)/artists.js"
    static let artistsPerLetterPage = 2_000
    /// The thumbnail size shown, when the index has it.
    static let preferredSize = "200"

    static func bucketPath(_ bucket: Int) -> String {
        "\(IndexLayout.galleryFolder)/\(IndexLayout.bucketName(bucket)).html"
    }

    /// From a gallery page: where an artist's first slice is.
    static func artistLink(_ artist: Int, of index: IndexContent, plan: IndexLayout.Plan) -> String {
        let first = plan.slices[artist][0]
        return IndexLayout.bucketName(first.bucket) + ".html#"
            + IndexLayout.anchor(of: index.artists[artist].name, slice: 0)
    }

    static func displayName(_ name: String) -> String { name.isEmpty ? "Unknown maker" : name }

    /// The front page, letter pages, artist list and style sheet: everything but the buckets.
    static func sharedFiles(_ index: IndexContent, plan: IndexLayout.Plan) -> [String: [UInt8]] {
        let letters = Letter.group(index)
        var files: [String: [UInt8]] = [
            frontPagePath: frontPage(index, letters: letters),
            stylePath: Array(style.utf8),
            artistListPath: artistList(index, plan: plan),
        ]
        for letter in letters {
            let pages = stride(from: 0, to: letter.artists.count, by: artistsPerLetterPage).map {
                letter.artists[$0..<min($0 + artistsPerLetterPage, letter.artists.count)]
            }
            for (number, artists) in pages.enumerated() {
                files[letter.path(page: number)] = letterPage(
                    letter, page: number, of: pages.count, artists: artists, letters: letters, index: index, plan: plan)
            }
        }
        return files
    }
}
