import Foundation
import HTTPFetching
import PipelineContract

/// The Rijksmuseum's legacy REST API (`/api/{culture}/collection`), the seed apps' API.
///
/// Query parameters pass through (`q`, `involvedMaker`, `type`, `s`, `imgonly`, `f.*`…),
/// except `culture`, which picks the path (default `en`). The API serves at most 10,000
/// objects per query (`p × ps ≤ 10,000`); no request past that is ever sent.
package struct LegacyCollectionSource: CollectionSource {
    package static let sourceName = "rijksmuseum"
    /// The API refuses `p × ps` beyond this.
    package static let reachableObjects = 10_000
    package static let maxPageSize = 100

    package var name: String { Self.sourceName }
    package var maxPageSize: Int { Self.maxPageSize }
    package var reachableObjects: Int? { Self.reachableObjects }
    let baseURL: URL
    let apiKey: String
    let imageEdge: Int
    let http: HTTPFetcher

    package init(baseURL: URL, apiKey: String, imageEdge: Int, http: HTTPFetcher) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.imageEdge = imageEdge
        self.http = http
    }

    package func fetch(_ request: PageRequest) async throws -> SourcePage {
        guard (1...Self.maxPageSize).contains(request.pageSize) else {
            throw SourceFormatError("page size \(request.pageSize) is outside 1…\(Self.maxPageSize)")
        }
        guard request.page >= 1, request.page * request.pageSize <= Self.reachableObjects else {
            throw SourceFormatError(
                "page \(request.page) of size \(request.pageSize) is past the API's \(Self.reachableObjects)-object limit"
            )
        }
        let response = try await http.get(url(query: request.query, page: request.page, pageSize: request.pageSize))
        let parsed = try Self.parse(response.body, imageEdge: imageEdge)
        return SourcePage(total: parsed.count, artworks: Self.artworks(of: parsed, imageEdge: imageEdge))
    }

    package func count(query: [String: String]) async throws -> SourceCount {
        let response = try await http.get(url(query: query, page: 1, pageSize: 1))
        let parsed = try Self.parse(response.body, imageEdge: imageEdge)
        var facets: [String: [String: Int]] = [:]
        for facet in parsed.facets ?? [] {
            // A value listed twice counts twice, its sum held at the ends of `Int`: the counts
            // are only compared and shown.
            facets[facet.name] = Dictionary(facet.facets.map { ($0.key, $0.value) }) { (first: Int, second: Int) in
                let (sum, overflow) = first.addingReportingOverflow(second)
                return overflow ? (first < 0 ? .min : .max) : sum
            }
        }
        return SourceCount(total: parsed.count, facets: facets)
    }

    /// Throws for a `culture` that makes no URL: it comes with the request.
    func url(query: [String: String], page: Int, pageSize: Int) throws -> URL {
        let culture = query["culture"] ?? "en"
        guard
            var components = URLComponents(
                url: baseURL.appendingPathComponent("api/\(culture)/collection"), resolvingAgainstBaseURL: false)
        else { throw SourceFormatError("culture=\(culture) makes no collection URL") }
        var items = [
            URLQueryItem(name: "key", value: apiKey), URLQueryItem(name: "format", value: "json"),
            URLQueryItem(name: "p", value: String(page)), URLQueryItem(name: "ps", value: String(pageSize)),
        ]
        for (name, value) in query.sorted(by: { $0.key < $1.key })
        where !["culture", "key", "p", "ps", "format"].contains(name) {
            items.append(URLQueryItem(name: name, value: value))
        }
        components.setFormQuery(items)
        guard let url = components.url else {
            throw SourceFormatError("culture=\(culture) makes no collection URL")
        }
        return url
    }

    /// The answer; one whose `count` is below zero is not the API's (a page's total never is).
    static func parse(_ body: [UInt8], imageEdge: Int) throws -> LegacyCollectionResponse {
        let response: LegacyCollectionResponse
        do {
            response = try JSONDecoder().decode(LegacyCollectionResponse.self, from: Data(body))
        } catch let error as DecodingError where error.isNotJSON {
            throw UnrecognisedAnswerError("collection response is not JSON", body: body)
        } catch let error as DecodingError {
            let start = String(decoding: body.prefix(120), as: UTF8.self)
            throw SourceFormatError(
                "collection response is not the expected JSON (\(error.summary)); body starts: \(start)")
        }
        guard response.count >= 0 else { throw SourceFormatError("collection response has count \(response.count)") }
        return response
    }

    /// Maps the API's objects to artworks: positions follow the API's order; an object
    /// without an objectNumber is left out; one already on the page is left out again.
    static func artworks(of response: LegacyCollectionResponse, imageEdge: Int) -> [Artwork] {
        var seen = Set<String>()
        var artworks: [Artwork] = []
        for (position, object) in response.artObjects.enumerated() {
            guard let objectNumber = object.objectNumber?.trimmingCharacters(in: .whitespaces), !objectNumber.isEmpty,
                seen.insert(objectNumber).inserted
            else { continue }
            let image = usableImage(object)
            var artwork = Artwork(
                objectNumber: objectNumber, title: object.title ?? "",
                artist: object.principalOrFirstMaker?.trimmingCharacters(in: .whitespaces) ?? "",
                imageURL: image.map { ImageURLSizing.sized($0.url!, longestEdge: imageEdge) },
                width: image?.width.flatMap { $0 > 0 ? $0 : nil },
                height: image?.height.flatMap { $0 > 0 ? $0 : nil },
                position: position)
            artwork.date = dating(object)
            artwork.years = artwork.date.flatMap { YearText.years(in: $0) }
            artwork.landingPage = object.links?.value?.web?.value.flatMap { $0.isEmpty ? nil : $0 }
            artworks.append(artwork)
        }
        return artworks
    }

    /// Words a dating is written with, besides years ("c. 1660", "in or after 1834 - in or before 1861",
    /// "17th century"), in English and Dutch.
    static let datingWords: Set<String> = [
        "c.", "ca.", "c", "ca", "circa", "in", "or", "of", "after", "before", "voor", "vóór", "na", "century", "eeuw",
        "-", "–",
    ]

    /// The dating the list gives: the last ", "-separated part of `longTitle`, which the API writes
    /// after the title and the makers, when it is a dating (years, with the words a dating is
    /// written with and nothing else); nil for an object whose long title is not its title followed
    /// by more, or ends otherwise.
    static func dating(_ object: LegacyCollectionResponse.ArtObject) -> String? {
        guard let title = object.title, !title.isEmpty, let long = object.longTitle?.value, long.hasPrefix(title + ", ")
        else { return nil }
        let rest = long.dropFirst(title.count + 2)
        guard let last = rest.components(separatedBy: ", ").last?.trimmingCharacters(in: .whitespaces),
            last.contains(where: { $0.isASCII && $0.isWholeNumber })
        else { return nil }
        let isDating = last.split(separator: " ").allSatisfy { word in
            let number = word.prefix { $0.isASCII && $0.isWholeNumber }
            let suffix = word.dropFirst(number.count)
            return datingWords.contains(word.lowercased())
                || (!number.isEmpty && ["", "?", "s", "st", "nd", "rd", "th", "e", "de"].contains(String(suffix)))
        }
        return isDating ? last : nil
    }

    /// The web image, unless the museum says there is none or that it must not be shown.
    private static func usableImage(_ object: LegacyCollectionResponse.ArtObject) -> LegacyCollectionResponse.ArtObject
        .Image?
    {
        guard object.hasImage != false, object.showImage != false, let image = object.webImage,
            let url = image.url, !url.isEmpty
        else { return nil }
        return image
    }
}
