import PipelineContract

/// The pages stage's state for one partition of its inputs: each page id's entry (in a
/// ``PageEntryTable``) and outline (in memory, for the summary), what a message changes in
/// `artpipe.index-works` and in its own changelog `artpipe.index-pages`, and the partition's
/// summary.
package struct PagePartition: Sendable {
    package let partition: Int
    let entries: any PageEntryTable
    package private(set) var outlines: [String: PageOutline] = [:]
    /// ``summary`` as of the outlines now; nil once one changed. Made from every page, so made
    /// again only when a page changed: every publish round asks for it (made each time, 15 % of
    /// the worker's CPU through new pages at a million works, perf).
    private var summaryMade: PagesSummary?

    package init(partition: Int, entries: any PageEntryTable = PageEntriesInMemory()) {
        (self.partition, self.entries) = (partition, entries)
    }

    /// What one message asks to write: rows of works, and the page's new entry for the changelog.
    package struct Writes: Sendable, Equatable {
        package var works: [PageRows.Write] = []
        package var entry: PageEntry?
    }

    /// The page id `input` is about; nil for a message that changes no page.
    static func pageId(of input: IndexInput) -> String? {
        switch input {
        case .page(let page): page.pageId
        case .thumbnails(let thumbnails): thumbnails.pageId
        case .failedRequest(let request, _): request.pageId
        case .other: nil
        }
    }

    /// What `input` writes, given its page's entry before it and whether the change that made
    /// that entry is known acknowledged (its rows in the topic): a pure function, so that a copy
    /// reads and writes the entry on its store's threads and only the outline here.
    static func writes(for input: IndexInput, before: PageEntry?, beforeSettled: Bool) -> Writes {
        taking(back: beforeSettled ? nil : before?.retracted, writes(for: input, before: before))
    }

    /// `writes` with the tombstones of `earlier` (what the change before took back, when it may
    /// not have reached the topic) that it does not write itself; its entry names all it takes
    /// back. A page handled again after a crash, over an entry that reached the changelog without
    /// its rows, finds nothing to take back itself.
    static func taking(back earlier: [String]?, _ writes: Writes) -> Writes {
        guard var entry = writes.entry else { return writes }
        var writes = writes
        var written = Set(writes.works.map(\.key))
        for key in earlier ?? [] where !written.contains(key) {
            guard let work = WorkRow.work(ofKey: key) else { continue }
            writes.works.append(PageRows.Write(work: work, key: key, row: nil))
            written.insert(key)
        }
        let retracted = writes.works.filter { $0.row == nil }.map(\.key)
        entry.retracted = retracted.isEmpty ? nil : retracted
        writes.entry = entry
        return writes
    }

    /// What `input` writes, given its page's entry before it; without what earlier changes took back.
    private static func writes(for input: IndexInput, before: PageEntry?) -> Writes {
        switch input {
        case .page(let page):
            // A fetched page: its works' rows, the rows of the thumbnails it already has (read
            // before it, or made for an earlier version: each joins by its image), and its entry
            // (a failure it had is over).
            let (entry, works) = PageRows.rows(of: page, before: before)
            let thumbnails = entry.thumbnails.map { PageRows.rows(of: $0, entry: entry) } ?? []
            return Writes(works: works + thumbnails, entry: entry)
        case .thumbnails(let thumbnails):
            // Rows for the works the page lists, kept in its entry; for a page not read yet, kept until it is.
            var entry = before ?? PageEntry(waitingFor: thumbnails.pageId)
            let kept = PageRows.kept(thumbnails, over: before?.thumbnails, entry: entry)
            entry.thumbnails = kept
            guard entry.fetched else { return Writes(entry: entry) }
            var works = PageRows.rows(of: kept, entry: entry)
            // Rows of items the page no longer keeps (past its limit), which no kept item writes: taken back.
            let keptItems = Set(kept.items.map(PageRows.identity))
            var dropped = before?.thumbnails ?? kept
            dropped.items.removeAll { keptItems.contains(PageRows.identity($0)) }
            if !dropped.items.isEmpty {
                let written = Set(works.map(\.key))
                works += PageRows.rows(of: dropped, entry: entry).filter { !written.contains($0.key) }.map {
                    PageRows.Write(work: $0.work, key: $0.key, row: nil)
                }
            }
            return Writes(works: works, entry: entry)
        case .failedRequest(let request, let reason):
            // The page's failure, unless the page was fetched, which wins in either order (a dead
            // letter of an earlier try read after the page).
            if let before, before.fetched { return Writes() }
            var entry = PageEntry(failed: request, reason: reason)
            entry.thumbnails = before?.thumbnails
            return before == entry ? Writes() : Writes(entry: entry)
        case .other:
            return Writes()
        }
    }

    /// Applies `input`: its writes, its page's entry and outline kept. `beforeSettled`: whether the
    /// change before on its page is known acknowledged (in one pass, always).
    package mutating func apply(_ input: IndexInput, beforeSettled: Bool = true) throws -> Writes {
        guard let pageId = Self.pageId(of: input) else { return Writes() }
        let writes = Self.writes(for: input, before: try entries.entry(of: pageId), beforeSettled: beforeSettled)
        if let entry = writes.entry {
            try entries.set(entry)
            settle(entry)
        }
        return writes
    }

    /// The outline of an entry just written to ``entries``.
    mutating func settle(_ entry: PageEntry) {
        settle(PageOutline(entry))
    }

    /// The outline of an entry ``entries`` holds.
    mutating func settle(_ outline: PageOutline) {
        guard outlines[outline.pageId] != outline else { return }
        outlines[outline.pageId] = outline
        summaryMade = nil
    }

    /// An entry read back from the changelog while the partition is restored.
    package mutating func restore(_ entry: PageEntry) throws {
        try entries.set(entry)
        settle(entry)
    }

    /// The summary of the partition's pages, made now from every outline.
    package var summary: PagesSummary { PagesSummary(partition: partition, outlines: outlines.values) }

    /// ``summary``, made again only when a page changed since the last call.
    mutating func currentSummary() -> PagesSummary {
        if let summaryMade { return summaryMade }
        let made = summary
        summaryMade = made
        return made
    }
}
