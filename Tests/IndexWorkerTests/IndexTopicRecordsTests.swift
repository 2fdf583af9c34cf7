import ArtpipeSupport
import EmbeddedStore
import Foundation
import KafkaClient
import PipelineContract
import Testing

@testable import IndexWorker

@Suite("The index topics' values")
struct IndexTopicRecordsTests {
    static func message(_ record: KafkaProducerRecord, value: [UInt8]? = nil) -> KafkaConsumerMessage {
        KafkaConsumerMessage(
            topic: record.topic, partition: record.partition ?? 0, offset: 7, key: record.key,
            value: value ?? record.value, headers: record.headers)
    }

    /// What builds before the compact form wrote.
    static func json(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static let work = WorkRowsTests.record

    static let rows: [WorkRow] = [
        described(
            WorkRowsTests.version(
                "p1", datestamp: "2026-01-01T00:00:00Z", image: "https://img/1.jpg", title: "Ünïcode \"t\"")),
        WorkRowsTests.deletion("p0", datestamp: "2025-01-01T00:00:00Z"),
        WorkRowsTests.thumbnails("https://img/1.jpg", .ok, page: "p1"),
        WorkRowsTests.thumbnails("https://img/2.jpg", .failed, page: "p2"),
        .thumbnails(imageURL: "https://img/3.jpg", item: WorkRowsTests.item("https://img/3.jpg", .noImage)),
    ]

    /// `row`'s artwork with every detail a record may give.
    static func described(_ row: WorkRow) -> WorkRow {
        guard case .version(var version) = row, var artwork = version.artwork else { return row }
        (artwork.date, artwork.years) = ("c. 1665–1667", YearRange(earliest: 1665, latest: 1667))
        (artwork.landingPage, artwork.rights) =
            ("https://museum.example/object/SK-A-1", "https://creativecommons.org/publicdomain/zero/1.0/")
        (artwork.iiifManifest, artwork.iiifImageService) =
            ("https://iiif.example/SK-A-1/manifest", "https://iiif.example/image/SK-A-1")
        version.artwork = artwork
        return .version(version)
    }

    static func line() throws -> ShardWorks.Row {
        var state = WorkState(work: work)
        for row in rows { _ = state.apply(key: row.key(of: work), row: row, shards: IndexShards(count: 4)) }
        return ShardWorks.Row(artist: "Ånna", work: try #require(state.rows.indexed))
    }

    static func entry() -> PageEntry {
        var entry = PageEntry(waitingFor: "rijksmuseum:q:3")
        (entry.crawlId, entry.source, entry.query, entry.page, entry.total) = ("c", "rijksmuseum", ["q": "v"], 3, 40)
        (entry.works, entry.images) = (["SK-1": work.description], ["SK-1": "https://img/1.jpg"])
        entry.retracted = [WorkRow.versionKey(of: work, page: entry.pageId)]
        return entry
    }

    @Test(
        "rows, lines and entries are written compact and read back as they were, and as the JSON earlier builds wrote")
    func compactAndJSON() throws {
        for row in Self.rows {
            let record = IndexTopicRecords.record(
                work: Self.work, key: row.key(of: Self.work), row: row, partitions: 12)
            #expect(record.value.first == 6, "format 3, as a zigzag number")
            for value in [record.value, try Self.json(row)] {
                let read = try IndexTopicRecords.workRow(Self.message(record, value: value))
                #expect(read.work == Self.work && read.key == row.key(of: Self.work) && read.row == row)
            }
        }
        let line = try Self.line()
        let lineRecord = IndexTopicRecords.record(
            WorkState.ArtistWrite(work: Self.work, shard: 2, row: line))
        for value in [lineRecord.value, try Self.json(line)] {
            let read = try IndexTopicRecords.artistRow(Self.message(lineRecord, value: value))
            #expect(read.work == Self.work && read.row == line)
        }
        for entry in [Self.entry(), PageEntry(waitingFor: "p")] {
            let record = IndexTopicRecords.record(entry, partition: 3)
            var format = CompactReader(record.value)
            #expect(try format.int() == 3, "an entry in format 3, with its thumbnails' colours")
            for value in [record.value, try Self.json(entry)] {
                #expect(try IndexTopicRecords.pageEntry(Self.message(record, value: value)) == entry)
            }
        }
        #expect(line.work.rights == "https://creativecommons.org/publicdomain/zero/1.0/" && line.work.years != nil)
        // A field added to a line must be added to its compact form (CompactWriter+IndexValues.swift).
        #expect(Mirror(reflecting: line).children.count == 2)
    }

    @Test("a row, an entry and a line in format 2, written before thumbnails had colours, are read without them")
    func formatTwo() throws {
        // Format 2 wrote what format 3 writes less its last fields: a row's and an item's colour, a
        // line's colour and WebPs. A format-3 value without them is the format-2 value with a
        // trailing "absent" for each. In an entry, its last item's colour comes before its
        // retractions.
        guard case .pageThumbnails(let pageId, let imageURL, var item) = Self.rows[2] else {
            Issue.record("the third row is a page's thumbnails")
            return
        }
        #expect(item.colour != nil)
        item.colour = nil
        let row = WorkRow.pageThumbnails(pageId: pageId, imageURL: imageURL, item: item)
        let record = IndexTopicRecords.record(work: Self.work, key: row.key(of: Self.work), row: row, partitions: 12)
        #expect(
            try IndexTopicRecords.workRow(Self.message(record, value: Self.formatTwo(record.value, absent: 1))).row
                == row)

        var entry = Self.entry()
        (entry.thumbnails, entry.retracted) = (PageThumbnails(pageId: entry.pageId, items: [item]), nil)
        let entryRecord = IndexTopicRecords.record(entry, partition: 3)
        #expect(entryRecord.value.suffix(2) == [0, 0], "no colour, then no retractions")
        let entryValue = Self.formatTwo(Array(entryRecord.value.dropLast()), absent: 1) + [0]
        #expect(try IndexTopicRecords.pageEntry(Self.message(entryRecord, value: entryValue)) == entry)

        var line = try Self.line()
        #expect(line.work.colour == "#8a7f6b")
        (line.work.colour, line.work.webpThumbnails) = (nil, nil)
        let lineRecord = IndexTopicRecords.record(WorkState.ArtistWrite(work: Self.work, shard: 2, row: line))
        #expect(
            try IndexTopicRecords.artistRow(
                Self.message(lineRecord, value: Self.formatTwo(lineRecord.value, absent: 2))
            ).row
                == line)
    }

    @Test("a work's state in the changelog in format 2, its thumbnails without colours, is read without them")
    func changelogFormatTwo() throws {
        var state = WorkState(work: Self.work)
        for row in Self.rows { _ = state.apply(key: row.key(of: Self.work), row: row, shards: IndexShards(count: 4)) }
        #expect(state.rows.pageImages.contains { $0.item.colour != nil })
        // Format 2 wrote a thumbnail item's fields up to its files; versions are the same in 2 and 3.
        func writeItem(_ item: PageThumbnails.Item, into writer: inout CompactWriter) {
            writer.write(item.objectNumber)
            writer.write(item.imageURL)
            writer.write(item.recordId)
            writer.write(item.status.rawValue)
            writer.write(item.reason)
            writer.write(item.files) {
                $0.write($1.size)
                $0.write($1.path)
                $0.write($1.width)
                $0.write($1.height)
                $0.write($1.bytes)
                $0.write($1.sha256)
            }
        }
        var value = CompactWriter()
        value.write(2)
        value.write(state.rows.versions) { $0.write($1) }
        value.write(state.rows.pageImages) {
            $0.write($1.pageId)
            $0.write($1.imageURL)
            writeItem($1.item, into: &$0)
        }
        value.write(state.rows.images) {
            $0.write($1.imageURL)
            writeItem($1.item, into: &$0)
        }
        let restored = try WorkState(work: Self.work, changelogValue: value.bytes, shards: IndexShards(count: 4))
        #expect(restored.rows.versions == state.rows.versions)
        #expect(
            restored.rows.pageImages
                == state.rows.pageImages.map {
                    var image = $0
                    image.item.colour = nil
                    return image
                })
        #expect(
            restored.rows.images
                == state.rows.images.map {
                    var image = $0
                    image.item.colour = nil
                    return image
                })
        #expect(restored.rows.indexed?.colour == nil && state.rows.indexed?.colour == "#8a7f6b")
        #expect(restored.rows.indexed?.thumbnails == state.rows.indexed?.thumbnails)
    }

    /// `value`, a format-3 value whose last `absent` fields are format 3's and absent (a row's
    /// colour; a line's colour and WebPs), as format 2 wrote it.
    static func formatTwo(_ value: [UInt8], absent: Int) -> [UInt8] {
        #expect(value.first == 6 && value.suffix(absent).allSatisfy { $0 == 0 })
        return [4] + value.dropFirst().dropLast(absent)
    }

    /// A version as format 1 wrote it: its artwork's fields up to `datestamp`, no details.
    static func writeFormatOne(_ version: WorkVersion, into writer: inout CompactWriter) {
        writer.write(version.pageId)
        writer.write(version.crawlId)
        writer.write(version.page)
        writer.write(version.artwork) {
            $0.write($1.objectNumber)
            $0.write($1.title)
            $0.write($1.artist)
            $0.write($1.imageURL)
            $0.write($1.width)
            $0.write($1.height)
            $0.write($1.position)
            $0.write($1.recordId)
            $0.write($1.datestamp)
        }
        writer.write(version.deletion) {
            $0.write($1.recordId)
            $0.write($1.datestamp)
        }
    }

    @Test(
        "a row, a work's state and a line in format 1, written before a record's details were kept, are read without them"
    )
    func formatOne() throws {
        guard case .version(let version) = Self.rows[0], let artwork = version.artwork else {
            Issue.record("the first row is a version")
            return
        }
        var row = CompactWriter()
        row.write(1)
        row.write(0)
        Self.writeFormatOne(version, into: &row)
        let record = IndexTopicRecords.record(
            work: Self.work, key: Self.rows[0].key(of: Self.work), row: Self.rows[0], partitions: 12)
        let read = try IndexTopicRecords.workRow(Self.message(record, value: row.bytes))
        var bare = artwork
        (bare.date, bare.years, bare.landingPage, bare.rights, bare.iiifManifest, bare.iiifImageService) =
            (nil, nil, nil, nil, nil, nil)
        #expect(bare != artwork)
        #expect(read.row == .version(WorkVersion(pageId: version.pageId, crawlId: "c", page: 1, artwork: bare)))

        // A work's state in the works stage's changelog, format 1: its versions, then no thumbnails.
        var state = CompactWriter()
        state.write(1)
        state.write([version]) { Self.writeFormatOne($1, into: &$0) }
        state.write([Int]()) { _, _ in }
        state.write([Int]()) { _, _ in }
        let restored = try WorkState(work: Self.work, changelogValue: state.bytes, shards: IndexShards(count: 4))
        #expect(restored.rows.versions == [WorkVersion(pageId: version.pageId, crawlId: "c", page: 1, artwork: bare)])
        #expect(restored.rows.indexed?.date == nil && restored.rows.indexed?.title == artwork.title)

        let work = try Self.line().work
        var line = CompactWriter()
        line.write(1)
        line.write("Ånna")
        line.write(work.objectNumber)
        line.write(work.title)
        line.write(work.pageId)
        line.write(work.page)
        line.write(work.imageURL)
        line.write(work.thumbnailStatus)
        line.write(work.thumbnailReason)
        line.write(work.thumbnails)
        line.write(work.recordId)
        line.write(work.datestamp)
        let lineRecord = IndexTopicRecords.record(
            WorkState.ArtistWrite(work: Self.work, shard: 2, row: try Self.line()))
        let readLine = try IndexTopicRecords.artistRow(Self.message(lineRecord, value: line.bytes))
        var bareWork = work
        (bareWork.date, bareWork.years, bareWork.landingPage) = (nil, nil, nil)
        (bareWork.rights, bareWork.iiifManifest, bareWork.iiifImageService) = (nil, nil, nil)
        (bareWork.colour, bareWork.webpThumbnails) = (nil, nil)
        #expect(readLine.row == ShardWorks.Row(artist: "Ånna", work: bareWork))
    }

    @Test("a value of a later format, cut short, or with bytes after it is refused for good, saying where it is")
    func refused() throws {
        let row = Self.rows[0]
        let record = IndexTopicRecords.record(
            work: Self.work, key: row.key(of: Self.work), row: row, partitions: 12)
        var later = record.value
        later[0] = 8  // format 4, zigzag
        for (value, says) in [
            (later, "format 4"), (Array(record.value.dropLast()), "ends early"), (record.value + [0], "bytes after"),
        ] {
            let error = #expect(throws: IndexTopicRecordError.self) {
                try IndexTopicRecords.workRow(Self.message(record, value: value))
            }
            #expect(error?.failureClass == .forGood)
            #expect(error?.description.contains(says) == true, "\(String(describing: error))")
            #expect(error?.description.contains("offset 7") == true, "\(String(describing: error))")
        }
    }
}
