import Foundation
import HTTPFetching
import PipelineContract

/// Flickr's photo search (`flickr.photos.search`), grouped by each photo's owner.
///
/// Query parameters pass through (`text`, `tags`, `user_id`, `license`, `min_upload_date`…);
/// the source sets the method, key, format, paging and the `extras` it needs (owner names,
/// upload and taken dates, licences, path aliases, sized image URLs), adding any `extras` the
/// query asks for. Flickr serves at most the first 4,000 results of a query, in pages of up to
/// 500; a crawl of a larger query is cut into upload-date ranges that each fit
/// (``ranges(of:pageSize:)``).
package struct FlickrSearchSource: RangeSplittingSource {
    package static let sourceName = "flickr"
    /// "Flickr will return at most the first 4,000 results for any given search query"
    /// (the method's own description, `flickr.reflection.getMethodInfo`).
    static let reachableLimit = 4_000
    static let pageSizeLimit = 500
    /// Flickr allows about 3,600 calls an hour per key.
    package static let requestsPerSecond = 1.0
    /// Flickr's error codes no retry mends: an invalid key, an unknown method.
    static let permanentCodes: Set<Int> = [100, 112]
    /// Set by the source; a query that names one is refused.
    static let reserved: Set<String> = ["method", "api_key", "format", "nojsoncallback", "page", "per_page"]
    /// Flickr's image sizes by their `url_` suffix, with the longest edge each promises,
    /// smallest first. `o` (the original) has no promised size.
    static let sizes: [(suffix: String, edge: Int)] = [
        ("sq", 75), ("t", 100), ("q", 150), ("s", 240), ("n", 320), ("w", 400), ("m", 500), ("z", 640), ("c", 800),
        ("l", 1024), ("h", 1600), ("k", 2048), ("o", Int.max),
    ]
    static let edges = Dictionary(uniqueKeysWithValues: sizes.map { ($0.suffix, $0.edge) })
    /// Where a missing key is told how to give one.
    static let keyHelp = "set FLICKR_API_KEY or pass --flickr-key-file"

    package var name: String { Self.sourceName }
    package var reachableObjects: Int? { Self.reachableLimit }
    package var maxPageSize: Int { Self.pageSizeLimit }
    package var missingConfiguration: String? {
        apiKey.isEmpty ? "the flickr source needs an API key: \(Self.keyHelp)" : nil
    }

    let endpoint: URL
    let apiKey: String
    let imageEdge: Int
    let http: HTTPFetcher

    /// - Parameter endpoint: Flickr's REST endpoint (`https://api.flickr.com/services/rest/`) or a stand-in.
    package init(endpoint: URL, apiKey: String, imageEdge: Int, http: HTTPFetcher) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.imageEdge = imageEdge
        self.http = http
    }

    package func fetch(_ request: PageRequest) async throws -> SourcePage {
        if let missingConfiguration { throw SourceFormatError(missingConfiguration) }
        guard (1...Self.pageSizeLimit).contains(request.pageSize) else {
            throw SourceFormatError("page size \(request.pageSize) is outside 1…\(Self.pageSizeLimit)")
        }
        // A page of an upload-date range: numbered on through the crawl, counted from the range's first.
        let firstPage = try FlickrRangeCursor(request.cursor, page: request.page).firstPage
        let page = request.page - firstPage + 1
        guard page >= 1, page * request.pageSize <= Self.reachableLimit else {
            throw SourceFormatError(
                "page \(page) of size \(request.pageSize) is past Flickr's first \(Self.reachableLimit) results")
        }
        let photos = try await search(query: request.query, page: page, perPage: request.pageSize)
        return SourcePage(total: photos.total, artworks: Self.artworks(of: photos.photo, imageEdge: imageEdge))
    }

    package func count(query: [String: String]) async throws -> SourceCount {
        if let missingConfiguration { throw SourceFormatError(missingConfiguration) }
        return SourceCount(total: try await search(query: query, page: 1, perPage: 1).total)
    }

    /// Before Flickr's first upload: the lower end of an unbounded query's range.
    static let firstUpload = 1_072_915_200
    static let dateParameters = ("min_upload_date", "max_upload_date")

    /// Cuts the query's upload-date range (given as Unix seconds, else from 2004 to now) in
    /// halves until every part fits the pages of `pageSize` within Flickr's first 4,000 results
    /// (3,900 at 300 a page). Both ends of a range are inclusive, as Flickr reads them. Each cut
    /// costs two counts, at Flickr's rate.
    package func ranges(of query: [String: String], pageSize: Int) async throws -> [(
        query: [String: String], total: Int
    )] {
        let (minimum, maximum) = Self.dateParameters
        func seconds(_ name: String, default value: Int) throws -> Int {
            guard let text = query[name] else { return value }
            guard let seconds = Int(text) else {
                throw SourceFormatError(
                    "\(name) must be Unix seconds for a crawl past Flickr's \(Self.reachableLimit) results to be cut by upload date, got '\(text)'"
                )
            }
            return seconds
        }
        let lower = try seconds(minimum, default: Self.firstUpload)
        let upper = try seconds(maximum, default: Int(Date().timeIntervalSince1970))
        guard (1...Self.reachableLimit).contains(pageSize), lower <= upper else {
            throw SourceFormatError(
                "cannot cut \(minimum)=\(lower)…\(maximum)=\(upper) at \(pageSize) a page for Flickr's \(Self.reachableLimit) results"
            )
        }
        var ranges: [(query: [String: String], total: Int)] = []
        try await cut(query, lower, upper, reach: Self.reachableLimit / pageSize * pageSize, into: &ranges)
        return ranges
    }

    private func cut(
        _ query: [String: String], _ lower: Int, _ upper: Int, reach: Int,
        into ranges: inout [(query: [String: String], total: Int)]
    ) async throws {
        var ranged = query
        ranged[Self.dateParameters.0] = String(lower)
        ranged[Self.dateParameters.1] = String(upper)
        let total = try await count(query: ranged).total
        if total <= reach {
            if total > 0 { ranges.append((ranged, total)) }
            return
        }
        guard upper > lower else {
            throw CrawlPlanningError.unsplittable(
                range: "the upload second \(lower) (Unix time)", total: total, limit: reach)
        }
        // Half the distance, taken unsigned: the ends are any seconds the query names.
        let middle = lower + Int(UInt(bitPattern: upper &- lower) / 2)
        try await cut(query, lower, middle, reach: reach, into: &ranges)
        try await cut(query, middle + 1, upper, reach: reach, into: &ranges)
    }

    package func request(crawlId: String, query: [String: String], page: Int, firstPage: Int, pageSize: Int)
        -> PageRequest
    {
        // The cursor's token is the crawl page the range starts at.
        PageRequest(
            crawlId: crawlId, source: name, query: query, page: page, pageSize: pageSize,
            cursor: FlickrRangeCursor(firstPage: firstPage).text)
    }

    private func search(query: [String: String], page: Int, perPage: Int) async throws -> FlickrSearchResponse.Photos {
        let reserved = Set(query.keys).intersection(Self.reserved)
        guard reserved.isEmpty else {
            throw SourceFormatError(
                "flickr sets \(reserved.sorted().joined(separator: ", ")) itself; leave it out of the query")
        }
        let response = try await http.get(url(query: query, page: page, perPage: perPage))
        return try Self.parse(response.body)
    }

    func url(query: [String: String], page: Int, perPage: Int) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        var items = [
            URLQueryItem(name: "method", value: "flickr.photos.search"), URLQueryItem(name: "api_key", value: apiKey),
            URLQueryItem(name: "format", value: "json"), URLQueryItem(name: "nojsoncallback", value: "1"),
            URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "per_page", value: String(perPage)),
        ]
        var extras = Set(
            ["owner_name", "date_upload", "date_taken", "license", "path_alias"]
                + Self.requestedSizes(imageEdge: imageEdge).map { "url_\($0)" })
        for (name, value) in query.sorted(by: { $0.key < $1.key }) {
            if name == "extras" {
                extras.formUnion(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            } else {
                items.append(URLQueryItem(name: name, value: value))
            }
        }
        items.append(URLQueryItem(name: "extras", value: extras.filter { !$0.isEmpty }.sorted().joined(separator: ",")))
        components.setFormQuery(items)
        return components.url!
    }

    /// The size that fits `imageEdge`, the two above it to fall back on, and the one below
    /// for photos that have nothing larger.
    static func requestedSizes(imageEdge: Int) -> [String] {
        let sized = sizes.dropLast()
        let fit = sized.firstIndex { $0.edge >= imageEdge } ?? sized.index(before: sized.endIndex)
        let range = max(sized.startIndex, fit - 1)...min(sized.index(before: sized.endIndex), fit + 2)
        return sized[range].map(\.suffix)
    }

    static func parse(_ body: [UInt8]) throws -> FlickrSearchResponse.Photos {
        let response: FlickrSearchResponse
        do {
            response = try JSONDecoder().decode(FlickrSearchResponse.self, from: Data(body))
        } catch let error as DecodingError where error.isNotJSON {
            throw UnrecognisedAnswerError("flickr's answer is not JSON", body: body)
        } catch let error as DecodingError {
            throw SourceFormatError("flickr's answer is not the expected JSON (\(error.summary))")
        }
        guard response.stat == "ok" else {
            let code = response.code.map(String.init) ?? "none"
            let what = "flickr answered \(response.stat): \(response.message ?? "no message") (code \(code))"
            if let failure = response.code, permanentCodes.contains(failure) { throw SourceFormatError(what) }
            throw SourceUnavailableError(what)
        }
        guard let photos = response.photos else { throw SourceFormatError("flickr's answer has no photos") }
        guard photos.total >= 0 else { throw SourceFormatError("flickr's answer has a total of \(photos.total)") }
        return photos
    }

    /// Maps photos to works: the photo id (as `flickr-<id>`) is the object number, the owner's
    /// name the artist (the NSID when the name was not asked for). A photo already on the page
    /// is left out again. The landing page is the photo's page (``photoPage(of:id:)``), the
    /// rights its licence (``FlickrLicense``) when the answer names one, the date when it was
    /// taken (``dateTaken(of:)``).
    static func artworks(of photos: [FlickrSearchResponse.Photo], imageEdge: Int) -> [Artwork] {
        var seen = Set<String>()
        var artworks: [Artwork] = []
        for (position, photo) in photos.enumerated() {
            let id = photo.id.trimmingCharacters(in: .whitespaces)
            guard !id.isEmpty, seen.insert(id).inserted else { continue }
            let owner = photo.ownerName?.trimmingCharacters(in: .whitespaces) ?? ""
            let image = Self.image(of: photo, imageEdge: imageEdge)
            var artwork = Artwork(
                objectNumber: objectNumber(photoId: id), title: photo.title ?? "",
                artist: owner.isEmpty ? (photo.owner ?? "") : owner, imageURL: image?.url, width: image?.width,
                height: image?.height, position: position)
            artwork.landingPage = photoPage(of: photo, id: id)
            artwork.rights = photo.license.flatMap { FlickrLicense.statement(id: $0) }
            artwork.date = dateTaken(of: photo)
            artwork.years = artwork.date.flatMap { YearText.years(in: $0) }
            artworks.append(artwork)
        }
        return artworks
    }

    /// Characters of the NSIDs, path aliases and photo ids that make a photo page's URL.
    static let pathCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@_-")

    /// `https://www.flickr.com/photos/<owner>/<photo id>`, the owner by its path alias when the
    /// answer has one, else by its NSID; nil without an owner, or for one that makes no URL path.
    static func photoPage(of photo: FlickrSearchResponse.Photo, id: String) -> String? {
        let alias = photo.pathAlias?.trimmingCharacters(in: .whitespaces) ?? ""
        let owner = alias.isEmpty ? (photo.owner?.trimmingCharacters(in: .whitespaces) ?? "") : alias
        guard !owner.isEmpty, owner.allSatisfy(pathCharacters.contains), id.allSatisfy(pathCharacters.contains)
        else { return nil }
        return "https://www.flickr.com/photos/\(owner)/\(id)"
    }

    /// When the photo was taken, as precisely as Flickr knows it (`datetakengranularity`):
    /// `YYYY-MM-DD hh:mm:ss` (0), `YYYY-MM` (4), `YYYY` (6), `c. YYYY` (8); nil when Flickr says
    /// it does not know (`datetakenunknown`: the upload time stands there).
    static func dateTaken(of photo: FlickrSearchResponse.Photo) -> String? {
        guard !photo.dateTakenUnknown, let taken = photo.dateTaken?.trimmingCharacters(in: .whitespaces),
            !taken.isEmpty
        else { return nil }
        let year = taken.prefix(4)
        guard year.count == 4, year.allSatisfy({ $0.isASCII && $0.isWholeNumber }) else { return taken }
        switch photo.dateTakenGranularity {
        case 4?: return String(taken.prefix(7))
        case 6?: return String(year)
        case 8?: return "c. \(year)"
        default: return taken
        }
    }

    static func objectNumber(photoId: String) -> String { "flickr-\(photoId)" }

    /// The smallest image whose longest edge reaches `imageEdge`; failing that, the largest.
    static func image(of photo: FlickrSearchResponse.Photo, imageEdge: Int) -> FlickrSearchResponse.Photo.Image? {
        let known = edges
        let candidates = photo.images.map { suffix, image in
            (
                image: image,
                edge: image.width.flatMap { width in image.height.map { max(width, $0) } } ?? known[suffix]
                    ?? 0
            )
        }.sorted { ($0.edge, $0.image.url) < ($1.edge, $1.image.url) }
        return (candidates.first { $0.edge >= imageEdge } ?? candidates.last)?.image
    }
}
