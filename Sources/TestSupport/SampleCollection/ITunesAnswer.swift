import Foundation

/// The iTunes Search API as the sample server answers it: the collection's distinct works as
/// songs, artwork at 100×100, the JSON framed in blank lines as Apple's servers send it.
enum ITunesAnswer {
    static let framing = "\n\n\n"

    static func results(_ works: ArraySlice<SampleWork>, imageBase: String) -> [String: Any] {
        let results = works.map { work -> [String: Any] in
            var result: [String: Any] = [
                "wrapperType": "track", "kind": "song", "trackId": work.id, "collectionId": 900_000 + work.id / 12,
                "artistName": work.maker, "trackName": work.title, "collectionName": "Sample album \(work.id / 12)",
                "country": "USA", "primaryGenreName": "Classical",
            ]
            if work.image != nil {
                for size in [30, 60, 100] {
                    result["artworkUrl\(size)"] = "\(imageBase)/itunes-art/\(work.id)/\(size)x\(size)bb.jpg"
                }
            }
            return result
        }
        return ["resultCount": results.count, "results": results]
    }

    /// What Apple answers (status 400) to a search without a term.
    static func missingTerm(_ query: [String: String]) -> [String: Any] {
        ["errorMessage": "Invalid value(s) for key(s): [term]", "queryParameters": query]
    }
}
