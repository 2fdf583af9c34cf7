import KafkaClient
import Logging

/// Reads a stage's store back from its changelog, for every stage alike (Kafka Streams'
/// `StoreChangelogReader`): the partitions of one assignment in one scan, outside any consumer
/// group, each from its oldest offset up to its bound, its rows handed to what its store began
/// (``RestorableStore``). ``StageProgress`` calls it when partitions are assigned, and again
/// for a partition whose restore failed.
package struct ChangelogRestorer: Sendable {
    package let kafka: KafkaClientConfiguration
    /// How long one scan may take before the restore fails (its partitions are then held, and
    /// restored again after a pause): an hour by default, for every partition of an assignment
    /// at millions of rows. A question to the broker fails after ``requestTimeout``, a scan that
    /// gets no message after ``stallTimeout``.
    package let timeout: Duration
    package let logger: Logger

    /// How long a question to the broker (its partitions' offsets) may take.
    static let requestTimeout = Duration.seconds(10)
    /// How long a scan may go without a message while some are to come: a broker that does not
    /// answer holds the partitions (and says so) rather than leave them restoring.
    static let stallTimeout = Duration.seconds(60)

    package init(kafka: KafkaClientConfiguration, timeout: Duration = .seconds(3600), logger: Logger) {
        (self.kafka, self.timeout, self.logger) = (kafka, timeout, logger)
    }

    /// Hands each partition of `restores` its rows of `changelog`, from its restore's
    /// ``PartitionRestore/resumeOffset`` (its oldest offset, for most) up to its offset in
    /// `bounds` (a partition it does not name: where the changelog ends now), in offset order,
    /// on a blocking thread; then finishes each. A partition bounded at or below where it resumes
    /// reads nothing; one `holds` no longer answers for gets no more rows and is not finished.
    /// Returns, by partition, one past the last offset its state shows: the last restored or left
    /// out (``RowLeftOut``), or where it resumed (none: nothing). Throws the first failure of the
    /// scan or of a store; the other partitions' rows stop then.
    package func restore(
        _ changelog: String, into restores: [Int: any PartitionRestore], upTo bounds: [Int: Int64] = [:],
        holds: @escaping @Sendable (Int) -> Bool = { _ in true }
    ) async throws -> [Int: Int64] {
        let read = restores.filter { (bounds[$0.key] ?? .max) > $0.value.resumeOffset }
        let scanned = Scanned()
        for (partition, restore) in restores where restore.resumeOffset > 0 {
            scanned.ends[partition] = restore.resumeOffset
        }
        let began = ContinuousClock.now
        let metadata: Logger.Metadata = [
            "kafka.topic": "\(changelog)", "kafka.partitions": "\(restores.keys.sorted())",
        ]
        let resumed = restores.filter { $0.value.resumeOffset > 0 }.keys.sorted()
        logger.info(
            "restoring changelog",
            metadata: resumed.isEmpty ? metadata : metadata.merging(["kept.partitions": "\(resumed)"]) { $1 })
        if !read.isEmpty {
            let visit: @Sendable (KafkaConsumerMessage) -> Void = { message in
                let partition = Int(message.partition)
                guard scanned.error == nil, let restore = restores[partition], holds(partition) else { return }
                do {
                    try restore.restore(message)
                    scanned.rows += 1
                } catch let leftOut as RowLeftOut {
                    if scanned.leftOut == 0 { scanned.firstLeftOut = (partition, message.offset, leftOut) }
                    scanned.leftOut += 1
                } catch {
                    scanned.error = error
                    return
                }
                scanned.ends[partition] = message.offset + 1
            }
            try await KafkaTopicSnapshot.scan(
                changelog, from: Dictionary(uniqueKeysWithValues: read.map { (Int32($0.key), $0.value.resumeOffset) }),
                upTo: Dictionary(uniqueKeysWithValues: bounds.map { (Int32($0.key), $0.value) }),
                configuration: kafka, timeout: timeout, requestTimeout: Self.requestTimeout,
                stallTimeout: Self.stallTimeout, logger: logger,
                // Nothing left to restore once no partition of it is held.
                continuing: { read.keys.contains(where: holds) }, visit: visit)
            if let error = scanned.error { throw error }
            if let (partition, offset, leftOut) = scanned.firstLeftOut {
                logger.warning(
                    "changelog rows this build cannot read were left out of the restore",
                    metadata: metadata.merging([
                        "rows.left.out": "\(scanned.leftOut)", "kafka.partition": "\(partition)",
                        "kafka.offset": "\(offset)", "error": "\(leftOut)",
                    ]) { $1 })
            }
        }
        for (partition, restore) in restores.sorted(by: { $0.key < $1.key }) where holds(partition) {
            try await restore.finish()
        }
        let seconds = Double(Int((ContinuousClock.now - began) / .milliseconds(1))) / 1000
        logger.info(
            "changelog restored",
            metadata: metadata.merging(["rows": "\(scanned.rows)", "seconds": "\(seconds)"]) { $1 })
        return scanned.ends
    }

    /// What a scan restored, and a store's first failure; only the scan's blocking thread
    /// touches it until the scan returns.
    private final class Scanned: @unchecked Sendable {
        var ends: [Int: Int64] = [:]
        var rows = 0
        var error: (any Error)?
        /// The rows left out (``RowLeftOut``), and the first of them.
        var leftOut = 0
        var firstLeftOut: (partition: Int, offset: Int64, error: RowLeftOut)?
    }
}
