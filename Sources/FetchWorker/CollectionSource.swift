import ArtpipeSupport
import PipelineContract

/// A museum API that serves pages of a query.
package protocol CollectionSource: Sendable {
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

    /// The query parameters it takes; nil when it passes any on.
    var queryParameters: Set<String>? { get }

    /// Objects per page when the server fixes it (a crawl's `--page-size` is then refused).
    var fixedPageSize: Int? { get }

    /// The most objects a page may ask for.
    var maxPageSize: Int { get }

    /// The most results of one query the API serves (the legacy API's 10,000, Flickr's 4,000);
    /// nil when every result can be paged to.
    var reachableObjects: Int? { get }

    /// What the source lacks to run at all (an API key), said so a person can fix it; nil when ready.
    var missingConfiguration: String? { get }

    /// The cursor of a cursor-paged crawl's first request, from what `count` found.
    func firstCursor(count: SourceCount, lastPage: Int?) -> String?
}

extension CollectionSource {
    package var isCursorPaged: Bool { false }
    package var isVersioned: Bool { false }
    package var queryParameters: Set<String>? { nil }
    package var fixedPageSize: Int? { nil }
    package var maxPageSize: Int { fixedPageSize ?? 100 }
    package var reachableObjects: Int? { nil }
    package var missingConfiguration: String? { nil }

    package func firstCursor(count: SourceCount, lastPage: Int?) -> String? {
        let text = CursorFields(token: nil, lastPage: lastPage ?? Int.max).text
        return text.isEmpty ? nil : text
    }

    /// Refuses a query with a parameter the source does not take, naming the ones it does.
    package func check(query: [String: String]) throws {
        guard let known = queryParameters else { return }
        let unknown = Set(query.keys).subtracting(known)
        guard unknown.isEmpty else {
            throw SourceFormatError(
                "\(name) does not take \(unknown.sorted().joined(separator: ", ")); "
                    + "its parameters are \(known.sorted().joined(separator: ", "))")
        }
    }
}

/// One fetched page.
package struct SourcePage: Sendable {
    package var total: Int
    var artworks: [Artwork]
    /// Pages to request next (cursor-paged sources).
    var next: [PageRequest]
    /// Records the source deleted (versioned sources).
    var deletions: [RecordDeletion]
    /// Records that could not be read; the rest of the page went on.
    var unreadable: [UnreadableRecord]
    /// Set on the last page of a harvest that reached the end of its list.
    var completedHarvest: HarvestMark?
    /// Set when part of the page failed for the moment: the page is tried again later, but
    /// `next` is already known and goes out now.
    var retryLater: RetryLater?
    /// Set when the server's next cursor is one already followed: the crawl stops there.
    var repeatedCursor = false

    /// Why a page is tried again later.
    package struct RetryLater: Sendable {
        var reason: String
        /// How long the server asked to wait, when it did.
        var retryAfter: Duration?
    }

    package init(
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
package struct SourceCount: Sendable {
    package var total: Int
    /// Facets the source offers for splitting the query: name → value → count.
    var facets: [String: [String: Int]]
    /// Where a versioned harvest's slices after the first start (datestamps, ascending), each
    /// small enough to list again when the server refuses a token.
    package var cuts: [String] = []
    /// The server's clock when it counted, where it says.
    var serverTime: String?
    /// False when the source could only say that at least `total` match (an OAI-PMH list
    /// without `completeListSize`).
    var isExact = true
    /// The metadata format a harvest reads (OAI-PMH's `metadataPrefix`), as chosen when counted.
    package var metadataPrefix: String?
    /// The repository selects by day, not by second (OAI-PMH's `granularity`).
    var selectsByDay = false

    package init(total: Int, facets: [String: [String: Int]] = [:]) {
        self.total = total
        self.facets = facets
    }
}

/// A source's answer that is not what its API promises: poison, not worth retrying.
package struct SourceFormatError: ClassifiedError {
    package let description: String
    package var failureClass: FailureClass { .forGood }

    package init(_ description: String) {
        self.description = description
    }
}

/// An answer that is not in the API's format at all: an HTML error page, a body cut short. The
/// service is having a moment (a maintenance page comes with status 200 too): for the moment,
/// unlike a ``SourceFormatError``.
package struct UnrecognisedAnswerError: ClassifiedError {
    package let description: String
    package var failureClass: FailureClass { .forNow }

    package init(_ what: String, body: [UInt8]) {
        let start = String(decoding: body.prefix(120), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        self.description = "\(what); body starts: \(start)"
    }
}
