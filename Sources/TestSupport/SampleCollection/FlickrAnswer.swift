import Foundation

/// `flickr.photos.search` as the sample server answers it, over the legacy API's listings: so
/// neighbouring pages overlap as Flickr's do while photos are being uploaded.
enum FlickrAnswer {
    /// Flickr's size suffixes with the longest edge each promises.
    static let sizes: [String: Int] = [
        "sq": 75, "t": 100, "q": 150, "s": 240, "n": 320, "w": 400, "m": 500, "z": 640, "c": 800, "l": 1024,
        "h": 1600, "k": 2048,
    ]
    /// The owner of photos whose maker is empty: every Flickr photo has an owner, not always a name.
    static let nameless = "10000000@N00"

    static func failure(code: Int, message: String) -> [String: Any] {
        ["stat": "fail", "code": code, "message": message]
    }

    /// One page: `listing` is the page's works, `total` the search's results.
    static func page(
        _ listing: [SampleWork], page: Int, perPage: Int, total: Int, extras: Set<String>, imageBase: String
    ) -> [String: Any] {
        let photos = listing.map { work -> [String: Any] in
            var photo: [String: Any] = [
                "id": String(work.id), "owner": owner(of: work.maker), "secret": "5ca1ab1e", "server": "65535",
                "farm": 66, "title": work.title, "ispublic": 1, "isfriend": 0, "isfamily": 0,
            ]
            if extras.contains("owner_name") { photo["ownername"] = work.maker }
            if extras.contains("date_upload") { photo["dateupload"] = String(uploaded(work)) }
            if let image = work.image {
                let (width, height) =
                    switch image {
                    case .jpeg(let width, let height), .truncated(let width, let height): (width, height)
                    case .notAnImage: (1_000, 1_000)
                    }
                for extra in extras where extra.hasPrefix("url_") {
                    let suffix = String(extra.dropFirst(4))
                    guard let edge = sizes[suffix] else { continue }
                    let scale = min(1, Double(edge) / Double(max(width, height)))
                    photo["url_\(suffix)"] = "\(imageBase)/images/\(work.id).jpg"
                    // Flickr writes these as strings or numbers, depending on the day.
                    photo["width_\(suffix)"] = String(Int((Double(width) * scale).rounded()))
                    photo["height_\(suffix)"] = Int((Double(height) * scale).rounded())
                }
            }
            return photo
        }
        return [
            "stat": "ok",
            "photos": [
                "page": page, "pages": (total + perPage - 1) / perPage, "perpage": perPage, "total": String(total),
                "photo": photos,
            ],
        ]
    }

    /// When a work was uploaded: in id order, a minute apart, from September 2020.
    static func uploaded(_ work: SampleWork) -> Int { 1_600_000_000 + work.id * 60 }

    /// An NSID per maker, the same every run.
    static func owner(of maker: String) -> String {
        guard !maker.isEmpty else { return nameless }
        var hash: UInt32 = 2_166_136_261
        for byte in maker.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return "\(10_000_001 + hash % 89_999_999)@N0\(hash % 9)"
    }
}
