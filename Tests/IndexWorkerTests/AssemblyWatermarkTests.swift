import KafkaClient
import Logging
import PipelineContract
import StreamTasks
import Synchronization
import Testing

@testable import IndexWorker

/// The watermark the shared files wait for, driven without a broker: the stages' progress set by
/// hand, the broker's answers fixed.
@Suite("When the shared files may show a set of page summaries")
struct AssemblyWatermarkTests {
    /// Fixed answers to the watermark's questions, counted.
    final class Broker: Sendable {
        let committed = Mutex<[Int64]>([0, 0])
        let worksEnds = Mutex<[Int64]>([0, 0])
        let artistsEnds = Mutex<[Int64]>([0, 0])
        let asked = Mutex(0)

        var questions: AssemblyWatermark.Questions {
            AssemblyWatermark.Questions(
                worksCommitted: { self.answer(self.committed) }, worksEnds: { self.answer(self.worksEnds) },
                artistsEnds: { self.answer(self.artistsEnds) })
        }

        private func answer(_ value: borrowing Mutex<[Int64]>) -> [Int64] {
            asked.withLock { $0 += 1 }
            return value.withLock { $0 }
        }
    }

    static func watermark(_ broker: Broker, works: StageProgress = StageProgress()) -> AssemblyWatermark {
        AssemblyWatermark(
            pages: StageProgress(), works: works, artists: StageProgress(), questions: broker.questions,
            acknowledged: nil,
            catchUpWithin: .milliseconds(50), logger: Logger(label: "test"))
    }

    static func pages(_ partition: Int, worksEnd: [Int64]?) -> PagesSummary {
        var summary = PagesSummary(partition: partition, outlines: [])
        summary.worksEnd = worksEnd
        return summary
    }

    static func shard(_ shard: Int, position: Int64?) -> ShardSummary {
        var summary = ShardSummary(shard: shard, artists: [], thumbnails: [:])
        summary.position = position
        return summary
    }

    @Test(
        "summaries that name no end of the works' topic set no target; with ends, it waits for the works group to commit past them, then for every shard to read the artists' end"
    )
    func throughTheGroups() async throws {
        let broker = Broker()
        let watermark = Self.watermark(broker)
        #expect(try await !watermark.aim(at: [Self.pages(0, worksEnd: nil)], versions: SummaryVersions()))
        #expect(!watermark.isAiming)

        let pages = [Self.pages(0, worksEnd: [5, 0]), Self.pages(1, worksEnd: [2, 7])]
        broker.committed.withLock { $0 = [5, 6] }
        #expect(try await watermark.aim(at: pages, versions: SummaryVersions()))
        #expect(watermark.isAiming && watermark.awaitsWorks, "committed 6 of 7 on partition 1")
        #expect(watermark.reached(by: [Self.shard(0, position: 100), Self.shard(1, position: 100)]) == nil)

        broker.committed.withLock { $0 = [5] }
        try await watermark.advance()
        #expect(watermark.awaitsWorks, "an answer short of a partition is not past it")

        broker.committed.withLock { $0 = [5, 7] }
        broker.artistsEnds.withLock { $0 = [11, 4] }
        try await watermark.advance()
        #expect(!watermark.awaitsWorks && watermark.artistsEnd == [11, 4])
        #expect(watermark.reached(by: [Self.shard(0, position: 11), Self.shard(1, position: 3)]) == nil)
        #expect(watermark.reached(by: [Self.shard(0, position: 11), Self.shard(1, position: nil)]) == nil)
        let reached = watermark.reached(by: [Self.shard(0, position: 12), Self.shard(1, position: 4)])
        #expect(reached?.pages == pages && !watermark.isAiming, "given once, then no longer waited for")
        #expect(watermark.reached(by: [Self.shard(0, position: 12), Self.shard(1, position: 4)]) == nil)
    }

    @Test(
        "a copy whose works stage holds every partition goes by what that stage settled, asking the broker only the artists' end"
    )
    func throughThisCopy() async throws {
        let broker = Broker()
        let works = StageProgress()
        let worksTopic = ArtpipeTopic.indexWorks
        for partition in 0..<2 {
            _ = works.starting(
                KafkaTopicPartition(topic: worksTopic, partition: Int32(partition)), committed: 0, earliest: 0)
        }
        works.assigned((0..<2).map { (KafkaTopicPartition(topic: worksTopic, partition: Int32($0)), endOffset: 0) })
        #expect(works.ready == [0, 1])
        let watermark = Self.watermark(broker, works: works)
        #expect(try await watermark.aim(at: [Self.pages(0, worksEnd: [3, 1])], versions: SummaryVersions()))
        #expect(watermark.awaitsWorks, "nothing settled yet")
        let asked = broker.asked.withLock { $0 }
        #expect(asked == 0, "the works group is not asked: this copy's stage says it")

        works.settled(worksTopic, partition: 0, upTo: 3)
        works.settled(worksTopic, partition: 1, upTo: 1)
        broker.artistsEnds.withLock { $0 = [2, 9] }
        try await watermark.advance(waiting: true)
        #expect(watermark.artistsEnd == [2, 9] && broker.asked.withLock { $0 } == 1)
    }
}
