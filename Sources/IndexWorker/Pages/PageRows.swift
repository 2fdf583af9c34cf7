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
    /// and a deletion is a version too. The entry keeps the page's thumbnails; what earlier
    /// changes took back is ``PagePartition``'s.
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
        let listedBefore = Set((before?.works.values).map(Array.init) ?? []).union(
            before?.records?.values ?? [:].values)
        let dropped = listedBefore.sorted().compactMap { text in
            WorkKey(text: text).flatMap { !$0.isRecord && !listed.contains($0) ? $0 : nil }
        }
        // The thumbnails rows the page wrote, joined again only when a work left it.
        var thumbnailsBefore: [WorkKey: [Write]] = [:]
        if !dropped.isEmpty, let before, let thumbnails = before.thumbnails {
            thumbnailsBefore = Dictionary(grouping: rows(of: thumbnails, entry: before), by: \.work)
        }
        var retracted: [Write] = []
        for work in dropped {
            retracted.append(Write(work: work, key: WorkRow.versionKey(of: work, page: page.pageId), row: nil))
            retracted += (thumbnailsBefore[work] ?? []).map { Write(work: work, key: $0.key, row: nil) }
        }
        entry.thumbnails = before?.thumbnails.map { named($0, in: entry) }
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
    /// made for, one row, keyed by the work, the page and the image: of the items for one, the
    /// first (the latest, as ``kept(_:over:entry:)`` orders them) unless a later one's status
    /// ranks higher. Items of objects the page does not list now (a late result for an older
    /// version of the page) go to no work.
    package static func rows(of thumbnails: PageThumbnails, entry: PageEntry?) -> [Write] {
        guard let entry else { return [] }
        var best: [WorkRow.ThumbnailsKey: PageThumbnails.Item] = [:]
        for item in thumbnails.items {
            guard let text = work(of: item, in: entry), let imageURL = image(of: item, in: entry) else { continue }
            let key = WorkRow.ThumbnailsKey(work: text, imageURL: imageURL)
            if let kept = best[key], WorkRows.statusRank(kept.status) >= WorkRows.statusRank(item.status) { continue }
            best[key] = item
        }
        return best.keys.sorted().compactMap { key in
            guard let work = WorkKey(text: key.work), let item = best[key] else { return nil }
            let row = WorkRow.pageThumbnails(pageId: entry.pageId, imageURL: key.imageURL, item: item)
            return Write(work: work, key: row.key(of: work), row: row)
        }
    }

    /// A page's thumbnails as the index keeps them, the latest first: the items of
    /// `thumbnails`, each replaced by the item `before` holds for the same object, record and
    /// image where that one's status ranks higher (a second harvest whose image request failed
    /// keeps the thumbnail made at the first); then `before`'s other items (a late result for an
    /// older version's image replaces no other image's; items read before the page's next
    /// version wait for it), those of works `entry` lists first; once the page is read, at most
    /// ``keptLimit(_:)`` in all (the rows of the items it drops are taken back by
    /// ``PagePartition``). An item without its image URL (a message before 0.7) is named the image
    /// its object has on the page as read so far.
    package static func kept(_ thumbnails: PageThumbnails, over before: PageThumbnails?, entry: PageEntry)
        -> PageThumbnails
    {
        let latest = named(thumbnails, in: entry)
        guard let before else { return latest }
        let earlier = Dictionary(before.items.map { (identity($0), $0) }, uniquingKeysWith: { first, _ in first })
        let fresh = Set(latest.items.map(identity))
        var kept = latest
        kept.items = latest.items.map { item in
            guard let earlier = earlier[identity(item)],
                WorkRows.statusRank(earlier.status) > WorkRows.statusRank(item.status)
            else { return item }
            return earlier
        }
        let others = before.items.filter { !fresh.contains(identity($0)) }
        let listed = others.filter { work(of: $0, in: entry) != nil }
        let unlisted = others.filter { work(of: $0, in: entry) == nil }
        kept.items += listed + unlisted
        if entry.fetched { kept.items = Array(kept.items.prefix(keptLimit(latest.items.count))) }
        return kept
    }

    /// What a page keeps one item of: its object, record and image.
    static func identity(_ item: PageThumbnails.Item) -> String {
        [item.objectNumber, item.recordId ?? "", item.imageURL ?? ""].joined(separator: "\u{1F}")
    }

    /// How many items a page keeps when its latest thumbnails hold `latest`: four times as many,
    /// and never fewer than 256.
    static func keptLimit(_ latest: Int) -> Int { max(4 * latest, 256) }

    /// `thumbnails` with each item that names no image URL named the one its object has on the
    /// page `entry` read; as they were before the page was read.
    static func named(_ thumbnails: PageThumbnails, in entry: PageEntry) -> PageThumbnails {
        guard entry.fetched else { return thumbnails }
        var named = thumbnails
        for index in named.items.indices where named.items[index].imageURL == nil {
            named.items[index].imageURL = entry.images[named.items[index].objectNumber]
        }
        return named
    }
}
