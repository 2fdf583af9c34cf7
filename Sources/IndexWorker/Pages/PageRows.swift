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
    /// only through a deletion), and a deletion is a version too.
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
        for text in Set(before?.works.values ?? [:].values).sorted() {
            guard let work = WorkKey(text: text), !work.isRecord, !listed.contains(work) else { continue }
            writes.append(Write(work: work, key: WorkRow.versionKey(of: work, page: page.pageId), row: nil))
        }
        return (entry, writes)
    }

    /// The rows of a page's thumbnails: each item to the work the page lists under the record
    /// it names (none when the page lists that record no more), an item that names none (or
    /// joined to an entry that keeps no records) under its object number; keyed by the image it
    /// was made for. Items of objects the page does not list now
    /// (a late result for an older version of the page) go to no work; an item without its image
    /// URL (a message before 0.7) is taken as made for the image the page's work has now.
    package static func rows(of thumbnails: PageThumbnails, entry: PageEntry?) -> [Write] {
        guard let entry else { return [] }
        return thumbnails.items.compactMap { item in
            let listed: String?
            if let recordId = item.recordId, let records = entry.records {
                listed = records[recordId]
            } else {
                listed = entry.works[item.objectNumber]
            }
            guard let text = listed, let work = WorkKey(text: text),
                let imageURL = item.imageURL ?? entry.images[item.objectNumber]
            else { return nil }
            let row = WorkRow.thumbnails(imageURL: imageURL, item: item)
            return Write(work: work, key: row.key(of: work), row: row)
        }
    }
}
