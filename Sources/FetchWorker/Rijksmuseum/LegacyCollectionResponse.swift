/// The legacy REST API's `/api/{culture}/collection` answer, only the fields artpipe reads.
/// Every field may be missing or null: the recorded responses show both.
struct LegacyCollectionResponse: Decodable {
    struct ArtObject: Decodable {
        struct Image: Decodable {
            let url: String?
            let width: Int?
            let height: Int?
        }

        struct Links: Decodable {
            /// The object's page on the museum's website.
            let web: LenientValue<String>?
        }

        let objectNumber: String?
        let title: String?
        let principalOrFirstMaker: String?
        /// "<title>, <makers>, <dating>" ("The Milkmaid, Johannes Vermeer, c. 1660").
        /// Details only: read when they have the expected shape (``LenientValue``).
        let longTitle: LenientValue<String>?
        let links: LenientValue<Links>?
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
