import PipelineContract

/// What the pages stage writes to `artpipe.index-works` for a page's messages: a row per work
/// it lists, tombstones of listings it no longer holds, and the rows of its thumbnails, each
/// to its work's partition. A pure function of the message and the page's entry before it.
package enum PageRows {
    /// A row for `artpipe.index-works`: `row` nil is a tombstone.
    package struct Write: Sendable, Equatable {
        package var work: WorkKey
        package var key: String
        package var row: WorkRow?
    }

    /// The rows of a fetched page, given what the page held before. A work without a record
    /// id leaves with its listing; a record's version stays when the page moves on (it leaves
    /// only through a deletion), and a deletion is a version too. A work the page no longer
    /// lists, of any source, loses the page's thumbnails row.
    package static func rows(of page: Page, before: PageEntry?) -> (entry: PageEntry, writes: [Write]) {
        let entry = PageEntry(page)
        var writes: [Write] = []
        var listed = Set<WorkKey>()
        for artwork in page.artworks {
            let work = WorkKey(source: page.workSource, artwork: artwork)
            // A second listing on one page never wins over the first.
            guard listed.insert(work).inserted else { continue }
            let row = WorkRow.version(
                WorkVersion(pageId: page.pageId, crawlId: page.crawlId, page: page.page, artwork: artwork))
            writes.append(Write(work: work, key: row.key(of: work), row: row))
        }
        for deletion in page.deletions ?? [] {
            let work = WorkKey(source: page.workSource, id: deletion.recordId, isRecord: true)
            guard listed.insert(work).inserted else { continue }
            let row = WorkRow.version(
                WorkVersion(
                    pageId: page.pageId, crawlId: page.crawlId, page: page.page, artwork: nil, deletion: deletion))
            writes.append(Write(work: work, key: row.key(of: work), row: row))
        }
        // Sorted: a set's order depends on how the entry was built (read back from the changelog or the
        // store, or kept), and the same page must write the same rows in the same order.
        let listedBefore = Set((before?.works.values).map(Array.init) ?? []).union(
            before?.records?.values ?? [:].values)
        for text in listedBefore.sorted() {
            guard let work = WorkKey(text: text), !listed.contains(work) else { continue }
            if !work.isRecord {
                writes.append(Write(work: work, key: WorkRow.versionKey(of: work, page: page.pageId), row: nil))
            }
            if before?.thumbnails != nil {
                writes.append(Write(work: work, key: WorkRow.thumbnailKey(of: work, page: page.pageId), row: nil))
            }
        }
        return (entry, writes)
    }

    /// The rows of a page's thumbnails: for each work the page lists, one row of the best item
    /// made for it (``WorkRows/rank(_:)``), keyed by the work and the page, naming the image it
    /// was made for. An item joins the work the page lists under the record it names (none when
    /// the page lists that record no more), an item that names none (or joined to an entry that
    /// keeps no records) under its object number. Items of objects the page does not list now
    /// (a late result for an older version of the page) go to no work; an item without its image
    /// URL (a message before 0.7) is taken as made for the image the page's work has now.
    package static func rows(of thumbnails: PageThumbnails, entry: PageEntry?) -> [Write] {
        guard let entry else { return [] }
        var best: [String: (imageURL: String, item: PageThumbnails.Item)] = [:]
        for item in thumbnails.items {
            let listed: String?
            if let recordId = item.recordId, let records = entry.records {
                listed = records[recordId]
            } else {
                listed = entry.works[item.objectNumber]
            }
            guard let text = listed, let imageURL = item.imageURL ?? entry.images[item.objectNumber] else { continue }
            if let kept = best[text], !WorkRows.rank(kept.item).lexicographicallyPrecedes(WorkRows.rank(item)) {
                continue
            }
            best[text] = (imageURL, item)
        }
        return best.keys.sorted().compactMap { text in
            guard let work = WorkKey(text: text), let made = best[text] else { return nil }
            let row = WorkRow.pageThumbnails(pageId: entry.pageId, imageURL: made.imageURL, item: made.item)
            return Write(work: work, key: row.key(of: work), row: row)
        }
    }

    /// A page's thumbnails as the index keeps them: `thumbnails`, each item replaced by the one
    /// `before` holds for the same object, record and image where that one ranks higher (a
    /// second harvest whose image request failed keeps the thumbnail made at the first).
    package static func kept(_ thumbnails: PageThumbnails, over before: PageThumbnails?) -> PageThumbnails {
        guard let before else { return thumbnails }
        let identity = { (item: PageThumbnails.Item) in
            [item.objectNumber, item.recordId ?? "", item.imageURL ?? ""].joined(separator: "\u{1F}")
        }
        let earlier = Dictionary(before.items.map { (identity($0), $0) }, uniquingKeysWith: { first, _ in first })
        var kept = thumbnails
        kept.items = thumbnails.items.map { item in
            guard let earlier = earlier[identity(item)],
                WorkRows.rank(item).lexicographicallyPrecedes(WorkRows.rank(earlier))
            else { return item }
            return earlier
        }
        return kept
    }
}
