/// The legacy REST API's `/api/{culture}/collection` answer, only the fields artpipe reads.
/// Every field may be missing or null: the recorded responses show both.
struct LegacyCollectionResponse: Decodable {
    struct ArtObject: Decodable {
        struct Image: Decodable {
            let url: String?
            let width: Int?
            let height: Int?
        }

        let objectNumber: String?
        let title: String?
        let principalOrFirstMaker: String?
        let hasImage: Bool?
        let showImage: Bool?
        let webImage: Image?
    }

    struct Facet: Decodable {
        struct Value: Decodable {
            let key: String
            let value: Int
        }

        let name: String
        let facets: [Value]
    }

    let count: Int
    let artObjects: [ArtObject]
    let facets: [Facet]?
}
