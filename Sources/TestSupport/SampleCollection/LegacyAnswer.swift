/// The legacy API's collection answer, as the sample server writes it.
struct LegacyAnswer: Encodable {
    struct Object: Encodable {
        struct WebImage: Encodable {
            let url: String
            let width: Int
            let height: Int
        }

        let id: String
        let objectNumber: String
        let title: String
        let principalOrFirstMaker: String
        let hasImage: Bool
        let showImage: Bool
        let webImage: WebImage?

        init(_ work: SampleWork, imageBase: String) {
            id = "nl-\(work.objectNumber)"
            objectNumber = work.objectNumber
            title = work.title
            principalOrFirstMaker = work.maker
            hasImage = work.image != nil
            showImage = true
            webImage = work.image.map { image in
                let (width, height) =
                    switch image {
                    case .jpeg(let width, let height), .truncated(let width, let height): (width, height)
                    case .notAnImage: (1_000, 1_000)
                    }
                return WebImage(url: "\(imageBase)/images/\(work.id).jpg", width: width, height: height)
            }
        }

        // A missing image is `null`, as the real API writes it.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(objectNumber, forKey: .objectNumber)
            try container.encode(title, forKey: .title)
            try container.encode(principalOrFirstMaker, forKey: .principalOrFirstMaker)
            try container.encode(hasImage, forKey: .hasImage)
            try container.encode(showImage, forKey: .showImage)
            try container.encode(webImage, forKey: .webImage)
        }

        enum CodingKeys: String, CodingKey {
            case id, objectNumber, title, principalOrFirstMaker, hasImage, showImage, webImage
        }
    }

    let count: Int
    let artObjects: [Object]
}
