import PipelineContract

/// Removes the works a repository no longer lists, for repositories that keep no deletions
/// (`Identify` says `deletedRecord` no or transient; Europeana keeps none): `crawl --reconcile`.
///
/// The records the pipeline holds for a scope (a source, its endpoint and set) are read from
/// `artpipe.pages` before the repository is listed, so a record harvested while the listing
/// runs is never taken for one that left; then the repository's complete list
/// (``OAICollectionSource/listIdentifiers(query:)``; a listing that did not complete removes
/// nothing). Each record held but not listed gets a deletion stamped with the server's clock
/// at the listing, newer than any version it had, published as pages of the reconciliation's
/// own, which the index takes as any deletion.
package struct OAIReconciliation: Sendable {
    package let source: String
    /// The query parameters that say which records: `endpoint` and `set` (not the window).
    package let scope: [String: String]
    /// Each record's newest word in the scope's pages, as the index weighs versions: the newer
    /// datestamp wins, and at one datestamp a deletion. A record an earlier reconciliation (or
    /// the repository) deleted is not held, so reconciling again publishes nothing new for it.
    private var newest: [String: (datestamp: String, deleted: Bool)] = [:]
    /// Deletions per page published.
    package static let deletionsPerPage = 1_000

    package init(source: String, query: [String: String]) {
        self.source = source
        scope = Self.scope(of: query)
    }

    static func scope(of query: [String: String]) -> [String: String] {
        query.filter { $0.key == "endpoint" || $0.key == "set" }
    }

    /// Record ids the pipeline's pages of this scope hold: listed, and not deleted since.
    package var held: Set<String> { Set(newest.compactMap { $0.value.deleted ? nil : $0.key }) }

    /// Takes a page of `artpipe.pages` into account when it is of this scope (a harvest of the
    /// same endpoint and set, whatever its window, or an earlier reconciliation's deletions).
    package mutating func add(_ page: Page) {
        guard page.source == source, Self.scope(of: page.query) == scope else { return }
        for artwork in page.artworks {
            guard let recordId = artwork.recordId, let datestamp = artwork.datestamp else { continue }
            offer(recordId, (datestamp, false))
        }
        for deletion in page.deletions ?? [] { offer(deletion.recordId, (deletion.datestamp, true)) }
    }

    private mutating func offer(_ recordId: String, _ word: (datestamp: String, deleted: Bool)) {
        if let current = newest[recordId],
            (current.datestamp, current.deleted ? 1 : 0) >= (word.datestamp, word.deleted ? 1 : 0)
        {
            return
        }
        newest[recordId] = word
    }

    /// The records held that the listing no longer has, sorted.
    package func gone(from listing: OAIIdentifierListing) -> [String] {
        held.subtracting(listing.present).sorted()
    }

    /// The pages that remove them: deletions stamped with the listing's server time.
    package func pages(removing listing: OAIIdentifierListing, crawlId: String) -> [Page] {
        let gone = gone(from: listing)
        var query = scope
        query["reconciled"] = listing.responseDate
        return stride(from: 0, to: gone.count, by: Self.deletionsPerPage).enumerated().map { index, start in
            let chunk = gone[start..<min(start + Self.deletionsPerPage, gone.count)]
            let request = PageRequest(
                crawlId: crawlId, source: source, query: query, page: index + 1, pageSize: Self.deletionsPerPage)
            return Page(
                request: request, total: gone.count, artworks: [],
                deletions: chunk.map { RecordDeletion(recordId: $0, datestamp: listing.responseDate) })
        }
    }
}
