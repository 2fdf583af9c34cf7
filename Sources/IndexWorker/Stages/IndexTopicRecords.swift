import ArtpipeSupport
import EmbeddedStore
import Foundation
import KafkaClient
import PipelineContract

/// The records of the index worker's own topics (docs/architecture.md, "The index at scale"):
/// their keys, partitions and values. A tombstone (no value) takes a key back. Values are
/// compact (``CompactWriter``): the format, then the fields; a value that begins with `{` is the
/// JSON that builds before the compact form wrote, and is still read.
package enum IndexTopicRecords {
    /// The format of the rows, lines and page entries this version writes, their first number.
    static let valueFormat = IndexValueFormat.current

    /// A page's entry in `artpipe.index-pages`, on the partition its page id's inputs are on.
    package static func record(_ entry: PageEntry, partition: Int32) -> KafkaProducerRecord {
        KafkaProducerRecord(
            topic: ArtpipeTopic.indexPages, partition: partition, key: entry.pageId,
            value: value { $0.write(entry) })
    }

    /// A row of `artpipe.index-works`, on its work's partition among `partitions`.
    package static func record(work: WorkKey, key: String, row: WorkRow?, partitions: Int) -> KafkaProducerRecord {
        let partition = Int32(work.partition(of: partitions))
        guard let row else { return .tombstone(topic: ArtpipeTopic.indexWorks, partition: partition, key: key) }
        return KafkaProducerRecord(
            topic: ArtpipeTopic.indexWorks, partition: partition, key: key, value: value { $0.write(row) })
    }

    /// The header of a row of `artpipe.index-works-state` naming the offset of the input row
    /// (of `artpipe.index-works`, on the same partition) whose handling the row shows.
    package static let inputOffsetHeader = "artpipe-input-offset"

    /// A work's state in `artpipe.index-works-state` (the works stage's changelog), on the
    /// partition of the input row at `inputOffset` that changed it; an empty state is the work's
    /// tombstone.
    package static func record(_ state: WorkState, partition: Int32, inputOffset: Int64) -> KafkaProducerRecord {
        let key = state.rows.work.description
        var record =
            state.isEmpty
            ? .tombstone(topic: ArtpipeTopic.indexWorksState, partition: partition, key: key)
            : KafkaProducerRecord(
                topic: ArtpipeTopic.indexWorksState, partition: partition, key: key, value: state.changelogValue)
        record.headers = [KafkaHeader(inputOffsetHeader, Array(String(inputOffset).utf8))]
        return record
    }

    /// The header of the mark in `artpipe.index-works-state` that names, for its partition, the
    /// input offset below which every change's lines were acknowledged; its key.
    package static let linesSentHeader = "artpipe-lines-sent"

    /// The mark of `partition` in `artpipe.index-works-state`: the lines of every change at an
    /// input offset below `position` were acknowledged. Not a tombstone: compaction keeps the last.
    package static func linesSent(_ position: Int64, partition: Int32) -> KafkaProducerRecord {
        KafkaProducerRecord(
            topic: ArtpipeTopic.indexWorksState, partition: partition, key: linesSentHeader, value: [],
            headers: [KafkaHeader(linesSentHeader, Array(String(position).utf8))])
    }

    /// What a message of `artpipe.index-works-state` says.
    package enum WorkStateRow {
        /// A work's state (nil: a tombstone, the work gone) after the input row at `inputOffset`.
        case work(WorkKey, WorkState?, inputOffset: Int64)
        /// Where the partition's lines are known sent.
        case linesSent(Int64)
    }

    /// What a message of `artpipe.index-works-state` says: a work's state, or a mark.
    package static func workStateRow(_ message: KafkaConsumerMessage, shards: IndexShards) throws -> WorkStateRow {
        if let mark = message.headers.last(where: { $0.name == linesSentHeader })?.value {
            guard let position = Int64(String(decoding: mark, as: UTF8.self)), position >= 0 else {
                throw IndexTopicRecordError(message, "an unreadable \(linesSentHeader) header")
            }
            return .linesSent(position)
        }
        guard let key = message.keyString, let work = WorkKey(text: key) else {
            throw IndexTopicRecordError(message, "the key names no work")
        }
        guard let header = message.headers.last(where: { $0.name == inputOffsetHeader })?.value,
            let offset = Int64(String(decoding: header, as: UTF8.self)), offset >= 0
        else { throw IndexTopicRecordError(message, "no \(inputOffsetHeader) header") }
        guard !message.isTombstone else { return .work(work, nil, inputOffset: offset) }
        do {
            return .work(
                work, try WorkState(work: work, changelogValue: message.value, shards: shards), inputOffset: offset)
        } catch {
            throw IndexTopicRecordError(message, "unreadable value: \(error)")
        }
    }

    /// A work's line in `artpipe.index-artists`, on its artist's shard.
    package static func record(_ write: WorkState.ArtistWrite) -> KafkaProducerRecord {
        let (key, partition) = (write.work.description, Int32(write.shard))
        guard let row = write.row else {
            return .tombstone(topic: ArtpipeTopic.indexArtists, partition: partition, key: key)
        }
        return KafkaProducerRecord(
            topic: ArtpipeTopic.indexArtists, partition: partition, key: key, value: value { $0.write(row) })
    }

    /// What a message of `artpipe.index-pages` says; nil for a tombstone.
    package static func pageEntry(_ message: KafkaConsumerMessage) throws -> PageEntry? {
        message.isTombstone ? nil : try decode(message) { try $0.pageEntry(format: $1) }
    }

    /// What a message of `artpipe.index-works` says: its work, its key and its row (nil: a tombstone).
    package static func workRow(_ message: KafkaConsumerMessage) throws -> (work: WorkKey, key: String, row: WorkRow?) {
        guard let key = message.keyString, let work = WorkRow.work(ofKey: key) else {
            throw IndexTopicRecordError(message, "the key names no work")
        }
        return (work, key, message.isTombstone ? nil : try decode(message) { try $0.workRow(format: $1) })
    }

    /// What a message of `artpipe.index-artists` says: its work and its line (nil: a tombstone).
    package static func artistRow(_ message: KafkaConsumerMessage) throws -> (work: WorkKey, row: ShardWorks.Row?) {
        guard let key = message.keyString, let work = WorkKey(text: key) else {
            throw IndexTopicRecordError(message, "the key names no work")
        }
        return (work, message.isTombstone ? nil : try decode(message) { try $0.shardRow(format: $1) })
    }

    /// A value in this version's format: the format, then what `write` writes.
    private static func value(_ write: (inout CompactWriter) -> Void) -> [UInt8] {
        var writer = CompactWriter()
        writer.write(valueFormat)
        write(&writer)
        return writer.bytes
    }

    /// The message's value, compact as `read` reads it in the value's format, or the JSON of
    /// builds before that.
    private static func decode<Value: Decodable>(
        _ message: KafkaConsumerMessage, _ read: (inout CompactReader, _ format: Int) throws -> Value
    ) throws -> Value {
        do {
            if message.value.first == UInt8(ascii: "{") {
                return try JSONDecoder().decode(Value.self, from: Data(message.value))
            }
            var reader = CompactReader(message.value)
            let format = try reader.int()
            guard IndexValueFormat.readable.contains(format) else {
                throw CompactReader.Malformed(
                    description: "a value in format \(format); this version reads formats \(IndexValueFormat.readable)")
            }
            let value = try read(&reader, format)
            guard reader.isAtEnd else { throw CompactReader.Malformed(description: "bytes after the value") }
            return value
        } catch {
            throw IndexTopicRecordError(message, "unreadable value: \(error)")
        }
    }
}

/// A record of the index worker's own topics it cannot read: never written by this version of
/// artpipe. For good: the record's bytes do not change.
package struct IndexTopicRecordError: ClassifiedError {
    package let description: String
    package var failureClass: FailureClass { .forGood }

    init(_ message: KafkaConsumerMessage, _ reason: String) {
        description = "\(message.topic) partition \(message.partition) offset \(message.offset): \(reason)"
    }
}
