import Foundation

/// A `flickr.photos.search` answer (`format=json&nojsoncallback=1`): either `stat: ok` with a
/// page of photos, or `stat: fail` with Flickr's error code. Flickr writes numbers as strings
/// in some fields and answers (`total`, `width_l`), so those decode from either.
struct FlickrSearchResponse: Decodable {
    var stat: String
    var code: Int?
    var message: String?
    var photos: Photos?

    struct Photos: Decodable {
        var page: Int
        var pages: Int
        var perpage: Int
        var total: Int
        var photo: [Photo]

        private enum CodingKeys: String, CodingKey { case page, pages, perpage, total, photo }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            page = try container.decodeLenientInt(forKey: .page)
            pages = try container.decodeLenientInt(forKey: .pages)
            perpage = try container.decodeLenientInt(forKey: .perpage)
            total = try container.decodeLenientInt(forKey: .total)
            photo = try container.decode([Photo].self, forKey: .photo)
        }
    }

    struct Photo: Decodable {
        var id: String
        /// The owner's NSID (`12345678@N00`).
        var owner: String?
        /// The owner's display name: only with `extras=owner_name`.
        var ownerName: String?
        var title: String?
        /// When it was uploaded, in seconds since the epoch: only with `extras=date_upload`.
        var dateUpload: Int?
        /// When it was taken (`YYYY-MM-DD hh:mm:ss`), how precisely, and whether Flickr knows it at
        /// all: only with `extras=date_taken`.
        var dateTaken: String?
        var dateTakenGranularity: Int?
        var dateTakenUnknown: Bool
        /// The licence's id: only with `extras=license`.
        var license: Int?
        /// The owner's chosen URL name: only with `extras=path_alias`.
        var pathAlias: String?
        /// The sized image URLs the `extras` asked for, by Flickr's size suffix (`m`, `z`, `l`…).
        var images: [String: Image]

        struct Image: Equatable {
            var url: String
            var width: Int?
            var height: Int?
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: FlickrKey.self)
            id = try container.decodeLenientString(forKey: FlickrKey("id"))
            owner = try? container.decodeLenientString(forKey: FlickrKey("owner"))
            ownerName = try? container.decodeLenientString(forKey: FlickrKey("ownername"))
            title = try? container.decodeLenientString(forKey: FlickrKey("title"))
            dateUpload = try? container.decodeLenientInt(forKey: FlickrKey("dateupload"))
            dateTaken = try? container.decodeLenientString(forKey: FlickrKey("datetaken"))
            dateTakenGranularity = try? container.decodeLenientInt(forKey: FlickrKey("datetakengranularity"))
            dateTakenUnknown = (try? container.decodeLenientInt(forKey: FlickrKey("datetakenunknown"))) == 1
            license = try? container.decodeLenientInt(forKey: FlickrKey("license"))
            pathAlias = try? container.decodeLenientString(forKey: FlickrKey("pathalias"))
            images = [:]
            for key in container.allKeys where key.stringValue.hasPrefix("url_") {
                let size = String(key.stringValue.dropFirst(4))
                guard let url = try? container.decode(String.self, forKey: key), !url.isEmpty else { continue }
                images[size] = Image(
                    url: url, width: try? container.decodeLenientInt(forKey: FlickrKey("width_\(size)")),
                    height: try? container.decodeLenientInt(forKey: FlickrKey("height_\(size)")))
            }
        }
    }

    struct FlickrKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension KeyedDecodingContainer {
    /// An integer written as a number or as a string of digits.
    func decodeLenientInt(forKey key: Key) throws -> Int {
        if let number = try? decode(Int.self, forKey: key) { return number }
        let text = try decode(String.self, forKey: key)
        guard let number = Int(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(text)' is not a whole number")
        }
        return number
    }

    /// A string, or a number written where a string is meant (an id).
    func decodeLenientString(forKey key: Key) throws -> String {
        if let text = try? decode(String.self, forKey: key) { return text }
        return String(try decode(Int.self, forKey: key))
    }
}
