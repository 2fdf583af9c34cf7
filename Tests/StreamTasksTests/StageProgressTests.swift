import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Synchronization
import Testing

@testable import StreamTasks

@Suite("A stage's partitions and their restores")
struct StageProgressTests {
    /// A stage whose input `works` is its changelog, restored into `store`; nothing committed
    /// means nothing to read, so no broker is asked (the address is never used).
    static func restoringWorks(into store: any RestorableStore) -> StageProgress {
        StageProgress(
            restore: .init(
                .input("works"), store: store,
                restorer: ChangelogRestorer(
                    kafka: KafkaClientConfiguration(brokers: "127.0.0.1:1"), logger: .init(label: "test"))))
    }

    @Test("a partition is ready once read from where it started to where it stood; an unknown end waits")
    func progress() {
        let progress = StageProgress()
        let pages = KafkaTopicPartition(topic: "pages", partition: 2)
        let thumbs = KafkaTopicPartition(topic: "thumbs", partition: 2)
        // Committed at 40 of 50: ten to read; thumbnails read from their start, 0 of 5.
        #expect(progress.starting(pages, committed: 40, earliest: 0) == nil)
        #expect(
            progress.starting(thumbs, committed: 7, earliest: 0, at: KafkaConsumerConfiguration.beginningOffset)
                == KafkaConsumerConfiguration.beginningOffset)
        progress.assigned([(pages, endOffset: 50), (thumbs, endOffset: 5)])
        #expect(progress.remaining == 15 && progress.ready.isEmpty)
        progress.read("pages", partition: 2, upTo: 50)
        progress.read("thumbs", partition: 2, upTo: 5)
        #expect(progress.ready == [2])
        progress.revoked([pages, thumbs])
        #expect(progress.ready.isEmpty && progress.held.isEmpty)
        progress.assigned([(KafkaTopicPartition(topic: "pages", partition: 1), endOffset: nil)])
        progress.read("pages", partition: 1, upTo: 1_000_000)
        #expect(progress.ready.isEmpty, "an end the broker did not give is never reached")
    }

    @Test(
        "offsets finished past every partition's end, from where the consumer started, on partitions held under the assignment they were finished under"
    )
    func settled() {
        let progress = StageProgress()
        let works = (0..<3).map { KafkaTopicPartition(topic: "works", partition: Int32($0)) }
        // Partition 2 holds nothing before offset 4 any more (compacted), and nothing from it.
        _ = progress.starting(works[2], committed: nil, earliest: 4, at: KafkaConsumerConfiguration.beginningOffset)
        progress.assigned(works.map { ($0, endOffset: $0.partition == 2 ? 4 : 10) })
        #expect(!progress.hasSettled("works", [0, 0, 4]), "nothing finished yet is not known to be past 0")
        progress.settled("works", partition: 0, upTo: 12)
        progress.settled("works", partition: 1, upTo: 5)
        progress.settled("works", partition: 0, upTo: 11)
        #expect(progress.hasSettled("works", [12, 5, 4]) && progress.hasSettled("works", [3, 0, 0]))
        #expect(!progress.hasSettled("works", [12, 6, 4]) && !progress.hasSettled("works", [13, 5, 4]))
        #expect(!progress.hasSettled("works", [12, 5, 5]), "past where the empty partition started")
        #expect(!progress.hasSettled("pages", [0, 0, 0]), "another topic")
        #expect(!progress.hasSettled("works", [1, 1, 1, 1]), "a partition not held")
        progress.settled("works", partition: 3, upTo: 50)
        #expect(!progress.hasSettled("works", [1, 1, 1, 1]), "finished on a partition not held counts for nothing")
        progress.revoked([works[1]])
        progress.assigned([(works[1], endOffset: 10)])
        #expect(!progress.hasSettled("works", [12, 5, 4]), "finished under an older assignment")
        progress.settled("works", partition: 1, upTo: 5)
        #expect(progress.hasSettled("works", [12, 5, 4]))
    }

    @Test(
        "a stage whose input is its changelog starts at the group's committed offset and restores up to it; a failed restore holds the partition, says why, and is begun again after a pause, the handler waiting meanwhile"
    )
    func restoreHolds() async throws {
        let store = FailingOnceStore()
        let progress = Self.restoringWorks(into: store)
        let works = KafkaTopicPartition(topic: "works", partition: 0)
        // Nothing committed: read from the start, nothing to restore (no question to the broker).
        #expect(progress.starting(works, committed: nil, earliest: 0) == KafkaConsumerConfiguration.beginningOffset)
        progress.assigned([(works, endOffset: 3)])
        let epoch = try #require(progress.held[0])
        let handled = Task { await progress.restored(0) }
        try await waitUntil("the failed restore to hold the partition", timeout: .seconds(10)) {
            progress.heldReasons == [0: "refused"]
        }
        #expect(progress.states[0] == .held(reason: "refused"))
        progress.read("works", partition: 0, upTo: 3)
        #expect(progress.ready.isEmpty, "read to its end, but not restored")
        #expect(await handled.value == epoch, "the handler waited for the restore begun again")
        #expect(progress.ready == [0] && progress.heldReasons.isEmpty)
        #expect(store.begun.withLock { $0 } == [epoch, epoch])
        #expect(!progress.wasRestored(0, partition: 0), "nothing restored, nothing skipped")
        progress.revoked([works])
        #expect(await progress.restored(0) == nil, "a partition not held is nobody's to handle")
        // Committed at 7: the consumer starts there.
        #expect(progress.starting(works, committed: 7, earliest: 0) == 7)
    }

    @Test("a message of an earlier assignment moves nothing of the current one")
    func readUnderAnEpoch() throws {
        let progress = StageProgress()
        let works = KafkaTopicPartition(topic: "works", partition: 0)
        progress.assigned([(works, endOffset: 5)])
        let first = try #require(progress.held[0])
        progress.revoked([works])
        progress.assigned([(works, endOffset: 5)])
        progress.read("works", partition: 0, upTo: 5, under: first)
        #expect(progress.ready.isEmpty)
        progress.read("works", partition: 0, upTo: 5, under: progress.held[0])
        #expect(progress.ready == [0])
    }

    @Test(
        "a handler waiting on a restore gets nothing once its partition was revoked and assigned again, or once its lease ends; the new assignment's handler gets the new epoch"
    )
    func waitAcrossAReassignment() async throws {
        let store = GatedStore()
        let progress = Self.restoringWorks(into: store)
        let works = KafkaTopicPartition(topic: "works", partition: 0)
        _ = progress.starting(works, committed: nil, earliest: 0)
        progress.assigned([(works, endOffset: 0)])
        let asked = Mutex(false)
        let waiting = Task {
            await progress.restored(
                0,
                while: {
                    asked.withLock { $0 = true }
                    return true
                })
        }
        try await waitUntil("the handler to wait on the first assignment's restore", timeout: .seconds(10)) {
            asked.withLock { $0 }
        }
        #expect(await progress.restored(0, while: { false }) == nil, "a lease that ended waits no more")
        progress.revoked([works])
        _ = progress.starting(works, committed: nil, earliest: 0)
        progress.assigned([(works, endOffset: 0)])
        let second = try #require(progress.held[0])
        store.open.withLock { $0 = true }
        #expect(await waiting.value == nil, "its assignment ended while it waited")
        #expect(await progress.restored(0) == second)
    }

    @Test(
        "a stage whose input is its changelog restores it up to the committed offset over the broker; a message below where it read is in the state already"
    )
    func restoreFromTheInput() async throws {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("works", partitions: 1)
        try await cluster.produce(to: topic, 0..<5)
        let store = CountingStore()
        let progress = StageProgress(
            restore: .init(
                .input(topic), store: store,
                restorer: ChangelogRestorer(kafka: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)))
        let partition = KafkaTopicPartition(topic: topic, partition: 0)
        #expect(
            progress.starting(partition, committed: 3, earliest: 0) == 3, "the consumer starts at the committed offset")
        progress.assigned([(partition, endOffset: 5)])
        let epoch = try #require(await progress.restored(0))
        #expect(store.rows.withLock { $0 } == ["v0", "v1", "v2"], "restored up to the committed offset")
        #expect(progress.wasRestored(2, partition: 0) && !progress.wasRestored(3, partition: 0))
        #expect(progress.states[0] == .catchingUp)
        progress.read(topic, partition: 0, upTo: 5, under: epoch)
        #expect(progress.ready == [0])
        await cluster.shutdown()
    }

    /// A store whose restores wait until it is opened.
    final class GatedStore: RestorableStore {
        let open = Mutex(false)

        func beginRestore(of partition: Int, under epoch: AssignmentEpoch) async throws -> any PartitionRestore {
            while !open.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            return RowRestore { _ in }
        }
    }

    /// A store that keeps the values of the rows it restored.
    final class CountingStore: RestorableStore {
        let rows = Mutex<[String]>([])

        func beginRestore(of partition: Int, under epoch: AssignmentEpoch) async throws -> any PartitionRestore {
            rows.withLock { $0 = [] }
            return RowRestore { message in
                self.rows.withLock { $0.append(String(decoding: message.value, as: UTF8.self)) }
            }
        }
    }

    /// A store whose first restore fails.
    final class FailingOnceStore: RestorableStore {
        let begun = Mutex<[AssignmentEpoch]>([])

        func beginRestore(of partition: Int, under epoch: AssignmentEpoch) async throws -> any PartitionRestore {
            let first = begun.withLock {
                $0.append(epoch)
                return $0.count == 1
            }
            if first { throw RestoreRefused() }
            return Restore()
        }

        final class Restore: PartitionRestore {
            func restore(_ message: KafkaConsumerMessage) throws {}
            func finish() async throws {}
        }
    }

    struct RestoreRefused: Error, CustomStringConvertible {
        var description: String { "refused" }
    }
}
