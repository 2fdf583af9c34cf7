import PipelineContract
import Synchronization

/// Strings that repeat across pages, held once: a maker's name is on every one of their works,
/// and decoding gives each occurrence storage of its own.
final class InternedStrings: Sendable {
    /// Where a decoder finds the table (`JSONDecoder.userInfo`).
    static let key = CodingUserInfoKey(rawValue: "artpipe.internedStrings")!

    private let strings = Mutex<Set<String>>([])

    /// `page` with its makers' names taken from the table, each datestamp held once within the
    /// page, and its artworks in an array of their own count: a decoded array keeps the room it
    /// grew into.
    func compact(_ page: Page) -> Page {
        var page = page
        var artworks: [Artwork] = []
        artworks.reserveCapacity(page.artworks.count)
        // A harvest's records change in batches, so a page's datestamps repeat; shared within
        // the page only, so the table never holds one per record.
        var datestamps: Set<String> = []
        strings.withLock { strings in
            for var artwork in page.artworks {
                artwork.artist = strings.insert(artwork.artist).memberAfterInsert
                artwork.datestamp = artwork.datestamp.map { datestamps.insert($0).memberAfterInsert }
                artworks.append(artwork)
            }
        }
        page.artworks = artworks
        return page
    }
}
