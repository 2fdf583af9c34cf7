import EmbeddedStore
import PipelineContract

// The compact forms of what the stages keep on disk (``WorkStore``, ``ShardLineFile``,
// ``PageEntryFile``) and send on their topics (``IndexTopicRecords``), every field in declaration
// order. A field added to one of these types is added here too: `WorkStoreTests` counts each
// type's fields.

/// The formats of the index's compact values, their topics' and the works stage's changelog's
/// first number: 1 without a record's details, 2 with them (``Artwork``'s and a work line's
/// `date` through `iiifImageService`, after their other fields), 3 with a thumbnail's colour and
/// WebPs too (a thumbnail item's `colour`, a work line's `colour` and `webpThumbnails`, last). A store's file holds the current
/// format only (``StoreCheckpoint/currentFormat`` refuses another).
package enum IndexValueFormat {
    /// The format this version writes.
    static let current = 3
    /// The formats this version reads.
    static let readable = 1...3
    /// The first format with a record's details.
    static let details = 2
    /// The first format with a thumbnail's colour.
    static let colours = 3
}

extension CompactWriter {
    /// A row of `artpipe.index-works`: its kind (0 a version, 1 a page's thumbnails, 2 0.7's
    /// thumbnails), then its fields.
    mutating func write(_ row: WorkRow) {
        switch row {
        case .version(let version):
            write(0)
            write(version)
        case .pageThumbnails(let pageId, let imageURL, let item):
            write(1)
            write(pageId)
            write(imageURL)
            write(item)
        case .thumbnails(let imageURL, let item):
            write(2)
            write(imageURL)
            write(item)
        }
    }

    /// A line of `artpipe.index-artists`.
    mutating func write(_ row: ShardWorks.Row) {
        write(row.artist)
        write(row.work)
    }

    mutating func write(_ version: WorkVersion) {
        write(version.pageId)
        write(version.crawlId)
        write(version.page)
        write(version.artwork) { $0.write($1) }
        write(version.deletion) {
            $0.write($1.recordId)
            $0.write($1.datestamp)
        }
    }

    mutating func write(_ artwork: Artwork) {
        write(artwork.objectNumber)
        write(artwork.title)
        write(artwork.artist)
        write(artwork.imageURL)
        write(artwork.width)
        write(artwork.height)
        write(artwork.position)
        write(artwork.recordId)
        write(artwork.datestamp)
        writeDetails(
            artwork.date, artwork.years, artwork.landingPage, artwork.rights, artwork.iiifManifest,
            artwork.iiifImageService)
    }

    /// A record's details, in the order of ``Artwork``'s fields.
    private mutating func writeDetails(
        _ date: String?, _ years: YearRange?, _ landingPage: String?, _ rights: String?, _ iiifManifest: String?,
        _ iiifImageService: String?
    ) {
        write(date)
        write(years) {
            $0.write($1.earliest)
            $0.write($1.latest)
        }
        write(landingPage)
        write(rights)
        write(iiifManifest)
        write(iiifImageService)
    }

    mutating func write(_ item: PageThumbnails.Item) {
        write(item.objectNumber)
        write(item.imageURL)
        write(item.recordId)
        write(item.status.rawValue)
        write(item.reason)
        write(item.files) {
            $0.write($1.size)
            $0.write($1.path)
            $0.write($1.width)
            $0.write($1.height)
            $0.write($1.bytes)
            $0.write($1.sha256)
        }
        write(item.colour)
    }

    mutating func write(_ work: ArtistIndex.Work) {
        write(work.objectNumber)
        write(work.title)
        write(work.pageId)
        write(work.page)
        write(work.imageURL)
        write(work.thumbnailStatus)
        write(work.thumbnailReason)
        write(work.thumbnails)
        write(work.recordId)
        write(work.datestamp)
        writeDetails(
            work.date, work.years, work.landingPage, work.rights, work.iiifManifest, work.iiifImageService)
        write(work.colour)
        write(work.webpThumbnails) { $0.write($1) }
    }

    mutating func write(_ entry: PageEntry) {
        write(entry.pageId)
        write(entry.crawlId)
        write(entry.source)
        write(entry.query)
        write(entry.page)
        write(entry.total)
        write(entry.works)
        write(entry.images)
        write(entry.records) { $0.write($1) }
        write(entry.failure)
        write(entry.fetched)
        write(entry.thumbnails) {
            $0.write($1.v)
            $0.write($1.pageId)
            $0.write($1.items) { $0.write($1) }
        }
        write(entry.retracted) { $0.write($1) { $0.write($1) } }
    }
}

extension CompactReader {
    /// A row of `artpipe.index-works` written in `format` (``IndexValueFormat``).
    mutating func workRow(format: Int = IndexValueFormat.current) throws -> WorkRow {
        switch try int() {
        case 0: return .version(try workVersion(format: format))
        case 1:
            return .pageThumbnails(
                pageId: try string(), imageURL: try string(), item: try thumbnailItem(format: format))
        case 2: return .thumbnails(imageURL: try string(), item: try thumbnailItem(format: format))
        case let kind: throw Malformed(description: "a row of kind \(kind)")
        }
    }

    mutating func shardRow(format: Int = IndexValueFormat.current) throws -> ShardWorks.Row {
        ShardWorks.Row(artist: try string(), work: try indexedWork(format: format))
    }

    mutating func workVersion(format: Int = IndexValueFormat.current) throws -> WorkVersion {
        WorkVersion(
            pageId: try string(), crawlId: try string(), page: try int(),
            artwork: try optional { try $0.artwork(format: format) },
            deletion: try optional { RecordDeletion(recordId: try $0.string(), datestamp: try $0.string()) })
    }

    mutating func artwork(format: Int = IndexValueFormat.current) throws -> Artwork {
        var artwork = Artwork(
            objectNumber: try string(), title: try string(), artist: try string(), imageURL: try optionalString(),
            width: try optionalInt(), height: try optionalInt(), position: try int(), recordId: try optionalString(),
            datestamp: try optionalString())
        if format >= IndexValueFormat.details {
            (artwork.date, artwork.years, artwork.landingPage) = (
                try optionalString(), try years(), try optionalString()
            )
            (artwork.rights, artwork.iiifManifest, artwork.iiifImageService) =
                (try optionalString(), try optionalString(), try optionalString())
        }
        return artwork
    }

    private mutating func years() throws -> YearRange? {
        try optional { YearRange(earliest: try $0.int(), latest: try $0.int()) }
    }

    mutating func thumbnailItem(format: Int = IndexValueFormat.current) throws -> PageThumbnails.Item {
        let objectNumber = try string()
        let imageURL = try optionalString()
        let recordId = try optionalString()
        let statusText = try string()
        guard let status = PageThumbnails.Item.Status(rawValue: statusText) else {
            throw Malformed(description: "a thumbnail status \(statusText)")
        }
        var item = PageThumbnails.Item(
            objectNumber: objectNumber, status: status, reason: try optionalString(),
            files: try list {
                PageThumbnails.File(
                    size: try $0.int(), path: try $0.string(), width: try $0.int(), height: try $0.int(),
                    bytes: try $0.int(), sha256: try $0.string())
            })
        (item.imageURL, item.recordId) = (imageURL, recordId)
        if format >= IndexValueFormat.colours { item.colour = try optionalString() }
        return item
    }

    mutating func indexedWork(format: Int = IndexValueFormat.current) throws -> ArtistIndex.Work {
        var work = ArtistIndex.Work(
            objectNumber: try string(), title: try string(), pageId: try string(), page: try int(),
            imageURL: try optionalString(), thumbnailStatus: try string(), thumbnailReason: try optionalString(),
            thumbnails: try pairs(), recordId: try optionalString(), datestamp: try optionalString())
        if format >= IndexValueFormat.details {
            (work.date, work.years, work.landingPage) = (try optionalString(), try years(), try optionalString())
            (work.rights, work.iiifManifest, work.iiifImageService) =
                (try optionalString(), try optionalString(), try optionalString())
        }
        if format >= IndexValueFormat.colours {
            (work.colour, work.webpThumbnails) = (try optionalString(), try optional { try $0.pairs() })
        }
        return work
    }

    /// A page entry's outline, read without its works, images or thumbnails (``pageEntry()``'s
    /// fields up to `fetched`).
    mutating func pageOutline() throws -> PageOutline {
        let (pageId, crawlId, source, query) = (try string(), try string(), try string(), try pairs())
        let (page, total) = (try int(), try int())
        try skipPairs()
        try skipPairs()
        _ = try optional { try $0.skipPairs() }
        let (failure, fetched) = (try optionalString(), try bool())
        return PageOutline(
            pageId: pageId, crawlId: crawlId, source: source, query: query, page: page, total: total, failure: failure,
            fetched: fetched)
    }

    mutating func pageEntry(format: Int = IndexValueFormat.current) throws -> PageEntry {
        var entry = PageEntry(waitingFor: try string())
        (entry.crawlId, entry.source, entry.query) = (try string(), try string(), try pairs())
        (entry.page, entry.total, entry.works, entry.images) = (try int(), try int(), try pairs(), try pairs())
        entry.records = try optional { try $0.pairs() }
        (entry.failure, entry.fetched) = (try optionalString(), try bool())
        entry.thumbnails = try optional {
            let version = try $0.int()
            var thumbnails = PageThumbnails(
                pageId: try $0.string(), items: try $0.list { try $0.thumbnailItem(format: format) })
            thumbnails.v = version
            return thumbnails
        }
        entry.retracted = try optional { try $0.list { try $0.string() } }
        return entry
    }
}
