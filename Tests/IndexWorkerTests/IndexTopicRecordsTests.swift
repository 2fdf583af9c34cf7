import ArtpipeSupport
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
        WorkRowsTests.version(
            "p1", datestamp: "2026-01-01T00:00:00Z", image: "https://img/1.jpg", title: "Ünïcode \"t\""),
        WorkRowsTests.deletion("p0", datestamp: "2025-01-01T00:00:00Z"),
        WorkRowsTests.thumbnails("https://img/1.jpg", .ok, page: "p1"),
        WorkRowsTests.thumbnails("https://img/2.jpg", .failed, page: "p2"),
        .thumbnails(imageURL: "https://img/3.jpg", item: WorkRowsTests.item("https://img/3.jpg", .noImage)),
    ]

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
            #expect(record.value.first == 2, "format 1, as a zigzag number")
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
            for value in [record.value, try Self.json(entry)] {
                #expect(try IndexTopicRecords.pageEntry(Self.message(record, value: value)) == entry)
            }
        }
        // A field added to a line must be added to its compact form (CompactWriter+IndexValues.swift).
        #expect(Mirror(reflecting: line).children.count == 2)
    }

    @Test("a value of a later format, cut short, or with bytes after it is refused for good, saying where it is")
    func refused() throws {
        let row = Self.rows[0]
        let record = IndexTopicRecords.record(
            work: Self.work, key: row.key(of: Self.work), row: row, partitions: 12)
        var later = record.value
        later[0] = 4  // format 2, zigzag
        for (value, says) in [
            (later, "format 2"), (Array(record.value.dropLast()), "ends early"), (record.value + [0], "bytes after"),
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
