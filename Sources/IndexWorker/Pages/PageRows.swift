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
    /// id leaves with its listing, and its thumbnails rows of the page with it; a record's
    /// version and thumbnails stay when the page moves on (it leaves only through a deletion),
    /// and a deletion is a version too. The same listing again (the page handled again, its
    /// entry already the new one) takes back again what the entry says its last change took back.
    /// The entry keeps the thumbnails of the works it lists.
    package static func rows(of page: Page, before: PageEntry?) -> (entry: PageEntry, writes: [Write]) {
        var entry = PageEntry(page)
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
        let thumbnailsBefore =
            before.map { before in before.thumbnails.map { rows(of: $0, entry: before) } ?? [] } ?? []
        var retracted: [Write] = []
        for text in Set((before?.works.values).map(Array.init) ?? []).sorted() {
            guard let work = WorkKey(text: text), !work.isRecord, !listed.contains(work) else { continue }
            retracted.append(Write(work: work, key: WorkRow.versionKey(of: work, page: page.pageId), row: nil))
            retracted += thumbnailsBefore.filter { $0.work == work }.map { Write(work: work, key: $0.key, row: nil) }
        }
        if retracted.isEmpty, let before, before.fetched, before.works == entry.works, before.records == entry.records {
            retracted = (before.retracted ?? []).compactMap { key in
                WorkRow.work(ofKey: key).map { Write(work: $0, key: key, row: nil) }
            }
        }
        entry.retracted = retracted.isEmpty ? nil : retracted.map(\.key)
        entry.thumbnails = before?.thumbnails.map { listedOnly($0, entry: entry) }
        return (entry, writes + retracted)
    }

    /// The work of `entry` an item of its thumbnails was made for, as a ``WorkKey`` text: the
    /// work the page lists under the record the item names (none when the page lists that
    /// record no more); for an item that names none (or an entry that keeps no records), the
    /// work of its object number.
    static func work(of item: PageThumbnails.Item, in entry: PageEntry) -> String? {
        if let recordId = item.recordId, let records = entry.records { return records[recordId] }
        return entry.works[item.objectNumber]
    }

    /// The image an item was made for: its own URL; for an item without one (a message before
    /// 0.7), the image the page's work of its object number has now.
    static func image(of item: PageThumbnails.Item, in entry: PageEntry) -> String? {
        item.imageURL ?? entry.images[item.objectNumber]
    }

    /// The rows of a page's thumbnails: for each work the page lists and each image an item was
    /// made for, one row of the best such item (``WorkRows/rank(_:)``), keyed by the work, the
    /// page and the image. Items of objects the page does not list now (a late result for an
    /// older version of the page) go to no work.
    package static func rows(of thumbnails: PageThumbnails, entry: PageEntry?) -> [Write] {
        guard let entry else { return [] }
        var best: [WorkRow.ThumbnailsKey: PageThumbnails.Item] = [:]
        for item in thumbnails.items {
            guard let text = work(of: item, in: entry), let imageURL = image(of: item, in: entry) else { continue }
            let key = WorkRow.ThumbnailsKey(work: text, imageURL: imageURL)
            if let kept = best[key], !WorkRows.rank(kept).lexicographicallyPrecedes(WorkRows.rank(item)) { continue }
            best[key] = item
        }
        return best.keys.sorted().compactMap { key in
            guard let work = WorkKey(text: key.work), let item = best[key] else { return nil }
            let row = WorkRow.pageThumbnails(pageId: entry.pageId, imageURL: key.imageURL, item: item)
            return Write(work: work, key: row.key(of: work), row: row)
        }
    }

    /// A page's thumbnails as the index keeps them: every item of `before` and of `thumbnails`,
    /// one per object, record and image; for one, the later item unless the earlier one's status
    /// ranks higher (a second harvest whose image request failed keeps the thumbnail made at the
    /// first; a new `ok` replaces an earlier `ok`, made with other settings). A late result for
    /// an older version's image adds its own item and replaces no other image's.
    package static func kept(_ thumbnails: PageThumbnails, over before: PageThumbnails?) -> PageThumbnails {
        guard let before else { return thumbnails }
        let identity = { (item: PageThumbnails.Item) in
            [item.objectNumber, item.recordId ?? "", item.imageURL ?? ""].joined(separator: "\u{1F}")
        }
        let earlier = Dictionary(before.items.map { (identity($0), $0) }, uniquingKeysWith: { first, _ in first })
        let later = Set(thumbnails.items.map(identity))
        var kept = thumbnails
        kept.items = thumbnails.items.map { item in
            guard let earlier = earlier[identity(item)],
                WorkRows.statusRank(earlier.status) > WorkRows.statusRank(item.status)
            else { return item }
            return earlier
        }
        kept.items += before.items.filter { !later.contains(identity($0)) }
        return kept
    }

    /// `thumbnails` without the items of works `entry` does not list.
    static func listedOnly(_ thumbnails: PageThumbnails, entry: PageEntry) -> PageThumbnails {
        var listed = thumbnails
        listed.items = thumbnails.items.filter { work(of: $0, in: entry) != nil }
        return listed
    }
}
