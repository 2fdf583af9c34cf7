import FuzzTestKit
import KafkaClient
import PipelineContract
import Testing

@testable import IndexWorker

/// The index worker's inputs made hostile by ``InputMutator``: the pages and thumbnails it
/// reads, and the records of its own topics (a topic written by another version, or by hand).
/// Each is refused with an error or read, and what is read is applied by the stages' rules,
/// never a crash.
@Suite("Hostile index records are refused, never a crash", .timeLimit(.minutes(3)))
struct IndexTopicRecordFuzzTests {
    static func message(_ record: KafkaProducerRecord, value: [UInt8]) -> KafkaConsumerMessage {
        KafkaConsumerMessage(
            topic: record.topic, partition: 0, offset: 0, key: record.key, value: value, headers: record.headers)
    }

    @Test("pages, and rows of artpipe.index-works and artpipe.index-artists, made hostile")
    func inputsAndOwnTopics() throws {
        let inputs = IndexStagesTests.namedAsMuseumsDo(IndexLayoutTests.inputs(works: 60, artists: 5))
        var pages = PagePartition(partition: 0)
        var works = WorkPartition(shards: IndexShards(count: 3))
        var records: [KafkaProducerRecord] = []
        // In page id order, so that input N of a seed is the same in every process.
        for page in inputs.pages.values.sorted(by: { $0.pageId < $1.pageId }) {
            records.append(try MessageCodec.record(page, topic: ArtpipeTopic.pages))
            let writes = try pages.apply(.page(page))
            if let entry = writes.entry { records.append(IndexTopicRecords.record(entry, partition: 0)) }
            for write in writes.works {
                records.append(
                    IndexTopicRecords.record(work: write.work, key: write.key, row: write.row, partitions: 3))
                for line in works.apply(write.work, key: write.key, row: write.row).artists {
                    records.append(IndexTopicRecords.record(line))
                }
            }
        }
        let mutator = InputMutator(seeds: records.filter { !$0.isTombstone }.map(\.value))
        // One record of each topic, its value replaced by each hostile one.
        let templates = Dictionary(grouping: records, by: \.topic).values.compactMap(\.first).sorted {
            $0.topic < $1.topic
        }
        // The stages' rules, fed whatever decodes.
        var (readPages, readWorks, readShard) = (
            PagePartition(partition: 1), WorkPartition(shards: IndexShards(count: 3)), ShardWorks(shard: 0)
        )
        let report = try FuzzCampaign(target: "index-records", count: 900).run(mutator) { value in
            var read = false
            for record in templates {
                let message = Self.message(record, value: value)
                switch record.topic {
                case ArtpipeTopic.pages:
                    if let input = try? IndexInput(message), (try? readPages.apply(input)) != nil { read = true }
                case ArtpipeTopic.indexPages:
                    if (try? IndexTopicRecords.pageEntry(message)) != nil { read = true }
                case ArtpipeTopic.indexWorks:
                    if let (work, key, row) = try? IndexTopicRecords.workRow(message) {
                        _ = readWorks.apply(work, key: key, row: row)
                        read = true
                    }
                default:
                    if let (work, row) = try? IndexTopicRecords.artistRow(message),
                        (try? readShard.apply(work, row)) != nil
                    {
                        read = true
                    }
                }
            }
            return read
        }
        #expect(report.refused > 0 && report.refused < report.inputs, "\(report)")
        // Whatever was read, each artist's count is its works.
        let view = try readShard.view(shards: IndexShards(count: 3), whole: true)
        for (number, artist) in view.artists.enumerated() {
            #expect(view.content.works(of: number, 0..<artist.workCount).count == artist.workCount, "\(artist.name)")
        }
    }
}
