import PipelineContract

/// The pages stage's state for one partition of its inputs: each page id's entry, what a
/// message changes in `artpipe.index-works` and in its own changelog `artpipe.index-pages`, and
/// the partition's summary.
package struct PagePartition: Sendable, Equatable {
    package let partition: Int
    package private(set) var entries: [String: PageEntry] = [:]

    package init(partition: Int) {
        self.partition = partition
    }

    /// What one message asks to write: rows of works, and the page's new entry for the changelog.
    package struct Writes: Sendable, Equatable {
        package var works: [PageRows.Write] = []
        package var entry: PageEntry?
    }

    /// A fetched page: its works' rows, the rows of the thumbnails it already has (read before
    /// it, or made for an earlier version: each joins by its image), and its entry (a failure it
    /// had is over).
    package mutating func apply(_ page: Page) -> Writes {
        var (entry, works) = PageRows.rows(of: page, before: entries[page.pageId])
        entry.thumbnails = entries[page.pageId]?.thumbnails
        if let thumbnails = entry.thumbnails { works += PageRows.rows(of: thumbnails, entry: entry) }
        entries[page.pageId] = entry
        return Writes(works: works, entry: entry)
    }

    /// A page's thumbnails: rows for the works the page lists, kept in its entry; for a page not
    /// read yet, kept until it is.
    package mutating func apply(_ thumbnails: PageThumbnails) -> Writes {
        var entry = entries[thumbnails.pageId] ?? PageEntry(waitingFor: thumbnails.pageId)
        entry.thumbnails = thumbnails
        entries[thumbnails.pageId] = entry
        return Writes(works: entry.fetched ? PageRows.rows(of: thumbnails, entry: entry) : [], entry: entry)
    }

    /// A request given up on: the page's failure, unless the page was fetched, which wins in
    /// either order (a dead letter of an earlier try read after the page).
    package mutating func apply(failed request: PageRequest, reason: String) -> Writes {
        if let entry = entries[request.pageId], entry.fetched { return Writes() }
        var entry = PageEntry(failed: request, reason: reason)
        entry.thumbnails = entries[request.pageId]?.thumbnails
        guard entries[request.pageId] != entry else { return Writes() }
        entries[request.pageId] = entry
        return Writes(entry: entry)
    }

    /// An entry read back from the changelog while the partition is restored.
    package mutating func restore(_ entry: PageEntry) {
        entries[entry.pageId] = entry
    }

    package var summary: PagesSummary { PagesSummary(partition: partition, entries: entries.values) }
}
