import ArtpipeTestKit
import KafkaClient
import KafkaTestKit
import Logging
import Synchronization
import Testing

@testable import StreamTasks

@Suite("Restoring a store from its changelog", .timeLimit(.minutes(1)))
struct ChangelogRestorerTests {
    @Test(
        "each partition read from its start up to its bound, or to its end, in offset order; a partition bounded at 0 reads nothing, one no longer held gets nothing more"
    )
    func bounds() async throws {
        let (cluster, topic) = try await Self.changelog()
        let restores = (0..<3).map { _ in Collecting() }
        let restorer = ChangelogRestorer(kafka: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)
        let ends = try await restorer.restore(
            topic, into: Dictionary(uniqueKeysWithValues: restores.enumerated().map { $0 }), upTo: [0: 3, 2: 0])
        #expect(restores[0].values.withLock { $0 } == ["p0-0", "p0-1", "p0-2"])
        #expect(restores[1].values.withLock { $0 } == (0..<5).map { "p1-\($0)" })
        #expect(restores[2].values.withLock { $0 }.isEmpty)
        #expect(restores.allSatisfy { $0.finished.withLock { $0 } }, "each finished")
        #expect(ends == [0: 3, 1: 5], "one past the last offset restored")

        // A partition no longer held gets no row, and is not finished.
        let again = (0..<2).map { _ in Collecting() }
        _ = try await restorer.restore(
            topic, into: Dictionary(uniqueKeysWithValues: again.enumerated().map { $0 })
        ) { $0 != 1 }
        #expect(again[0].values.withLock { $0.count } == 5 && again[0].finished.withLock { $0 })
        #expect(again[1].values.withLock { $0 }.isEmpty && !again[1].finished.withLock { $0 })
        await cluster.shutdown()
    }

    @Test(
        "a partition whose rows a checkpoint kept is read from its offset on, and restored to there at least; one bounded at or below it reads nothing"
    )
    func resumes() async throws {
        let (cluster, topic) = try await Self.changelog()
        let restores = [Collecting(resumingAt: 3), Collecting(resumingAt: 5), Collecting(resumingAt: 4)]
        let restorer = ChangelogRestorer(kafka: KafkaClientConfiguration(brokers: cluster.brokers), logger: .test)
        let ends = try await restorer.restore(
            topic, into: Dictionary(uniqueKeysWithValues: restores.enumerated().map { $0 }), upTo: [2: 2])
        #expect(restores[0].values.withLock { $0 } == ["p0-3", "p0-4"])
        #expect(restores[1].values.withLock { $0 }.isEmpty && restores[2].values.withLock { $0 }.isEmpty)
        #expect(restores.allSatisfy { $0.finished.withLock { $0 } }, "each finished")
        #expect(ends == [0: 5, 1: 5, 2: 4], "one past the last offset restored, or where it resumed")
        await cluster.shutdown()
    }

    @Test(
        "a row a restore leaves out is passed over and counted, the partition restored past it; the first is named in one warning; any other error fails the restore"
    )
    func rowsLeftOut() async throws {
        let (cluster, topic) = try await Self.changelog()
        let lines = LoggedLines()
        let logger = Logger(label: "test") { _ in lines }
        // Offsets 1, 3 and 4 (its last) of partition 1 are unreadable to this restore.
        let restores = (0..<3).map { partition in
            Collecting(leavingOut: partition == 1 ? ["p1-1", "p1-3", "p1-4"] : [])
        }
        let restorer = ChangelogRestorer(kafka: KafkaClientConfiguration(brokers: cluster.brokers), logger: logger)
        let ends = try await restorer.restore(
            topic, into: Dictionary(uniqueKeysWithValues: restores.enumerated().map { $0 }))
        #expect(restores[1].values.withLock { $0 } == ["p1-0", "p1-2"])
        #expect(
            ends == [0: 5, 1: 5, 2: 5] && restores.allSatisfy { $0.finished.withLock { $0 } },
            "restored past the rows left out, the last among them")
        let warnings = lines.lines.filter { $0.level == .warning && $0.message.hasPrefix("changelog rows") }
        #expect(warnings.count == 1, "\(lines.lines)")
        #expect(
            warnings.first.map {
                $0.message == "changelog rows this build cannot read were left out of the restore"
                    && $0.metadata["rows.left.out"] == "3" && $0.metadata["kafka.partition"] == "1"
                    && $0.metadata["kafka.offset"] == "1" && $0.metadata["error"] == "unreadable: p1-1"
            } == true, "\(warnings)")
        #expect(RowLeftOut(Unreadable(value: "x")).failureClass == .forGood)
        #expect(try RowLeftOut.unlessUnreadable { 7 } == 7)
        #expect(throws: RowLeftOut.self) { try RowLeftOut.unlessUnreadable { throw Unreadable(value: "y") } }

        // Any other error fails the restore.
        let failing = Collecting(failingAt: "p0-2")
        await #expect(throws: Unreadable.self) {
            _ = try await restorer.restore(topic, into: [0: failing])
        }
        #expect(!failing.finished.withLock { $0 })
        await cluster.shutdown()
    }

    struct Unreadable: Error, CustomStringConvertible {
        let value: String
        var description: String { "unreadable: \(value)" }
    }

    /// A changelog of three partitions, five rows each: `p<partition>-<offset>`.
    static func changelog() async throws -> (TestCluster, String) {
        let cluster = try TestCluster()
        let topic = try cluster.makeTopic("changelog", partitions: 3)
        try await cluster.producer.send(
            (0..<3).flatMap { partition in
                (0..<5).map {
                    KafkaProducerRecord(
                        topic: topic, partition: Int32(partition), key: "k\($0)",
                        value: Array("p\(partition)-\($0)".utf8))
                }
            })
        return (cluster, topic)
    }

    final class Collecting: PartitionRestore {
        let values = Mutex<[String]>([])
        let finished = Mutex(false)
        let resumeOffset: Int64
        /// Rows it throws ``RowLeftOut`` for, and the row it fails at.
        let leftOut: Set<String>
        let failure: String?

        init(resumingAt offset: Int64 = 0, leavingOut: Set<String> = [], failingAt failure: String? = nil) {
            (resumeOffset, leftOut, self.failure) = (offset, leavingOut, failure)
        }

        func restore(_ message: KafkaConsumerMessage) throws {
            let value = String(decoding: message.value, as: UTF8.self)
            if leftOut.contains(value) { throw RowLeftOut(Unreadable(value: value)) }
            if value == failure { throw Unreadable(value: value) }
            values.withLock { $0.append(value) }
        }

        func finish() async throws { finished.withLock { $0 = true } }
    }
}
