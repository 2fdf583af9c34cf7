/// An iTunes Search API answer: `resultCount` and the results, each a track, a collection,
/// an audiobook or an artist (`wrapperType`). Only the fields a work needs are read.
struct ITunesSearchResponse: Decodable {
    var resultCount: Int
    var results: [Result]

    struct Result: Decodable {
        var wrapperType: String?
        var kind: String?
        var trackId: Int?
        var collectionId: Int?
        var artistName: String?
        var trackName: String?
        var collectionName: String?
        var artworkUrl100: String?
        var artworkUrl60: String?
        var artworkUrl30: String?
        /// Details only: read when they have the expected shape (``LenientValue``).
        var trackViewUrl: LenientValue<String>?
        var collectionViewUrl: LenientValue<String>?
        var releaseDate: LenientValue<String>?
        var copyright: LenientValue<String>?
    }
}
