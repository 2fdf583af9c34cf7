import PipelineContract

/// A museum API that serves pages of a query.
public protocol CollectionSource: Sendable {
    /// The `source` name in messages (`rijksmuseum`, `rijksmuseum-search`).
    var name: String { get }

    /// Fetches one page: its artworks, the total the query matches, and for cursor-paged
    /// sources the request of the next page.
    func fetch(_ request: PageRequest) async throws -> SourcePage

    /// How many objects `query` matches, for planning a crawl.
    func count(query: [String: String]) async throws -> SourceCount

    /// True when pages are reached through the previous page's cursor, not by number.
    var isCursorPaged: Bool { get }

    /// True when its works carry record ids and datestamps, and deletions come as records.
    var isVersioned: Bool { get }
}

extension CollectionSource {
    public var isCursorPaged: Bool { false }
    public var isVersioned: Bool { false }
}

/// One fetched page.
public struct SourcePage: Sendable {
    public var total: Int
    public var artworks: [Artwork]
    /// Pages to request next (cursor-paged sources).
    public var next: [PageRequest]
    /// Records the source deleted (versioned sources).
    public var deletions: [RecordDeletion]
    /// Records that could not be read; the rest of the page went on.
    public var unreadable: [UnreadableRecord]
    /// Set on the last page of a harvest that reached the end of its list.
    public var completedHarvest: HarvestMark?

    public init(
        total: Int, artworks: [Artwork], next: [PageRequest] = [], deletions: [RecordDeletion] = [],
        unreadable: [UnreadableRecord] = []
    ) {
        self.total = total
        self.artworks = artworks
        self.next = next
        self.deletions = deletions
        self.unreadable = unreadable
    }
}

/// What a crawl needs to know before it starts.
public struct SourceCount: Sendable {
    public var total: Int
    /// Facets the source offers for splitting the query: name → value → count.
    public var facets: [String: [String: Int]]

    public init(total: Int, facets: [String: [String: Int]] = [:]) {
        self.total = total
        self.facets = facets
    }
}

/// A source's answer that is not what its API promises: poison, not worth retrying.
public struct SourceFormatError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// An answer that is not in the API's format at all: an HTML error page, a body cut short. The
/// service is having a moment (a maintenance page comes with status 200 too), so it is tried
/// again later, unlike a ``SourceFormatError``.
public struct UnrecognisedAnswerError: Error, CustomStringConvertible {
    public let description: String

    public init(_ what: String, body: [UInt8]) {
        let start = String(decoding: body.prefix(120), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        self.description = "\(what); body starts: \(start)"
    }
}
