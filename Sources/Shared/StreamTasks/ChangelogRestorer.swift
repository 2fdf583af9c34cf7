import KafkaClient
import Logging

/// Reads a stage's store back from its changelog, for every stage alike (Kafka Streams'
/// `StoreChangelogReader`): the partitions of one assignment in one scan, outside any consumer
/// group, each from its oldest offset up to its bound, its rows handed to what its store began
/// (``RestorableStore``). ``StageProgress`` calls it when partitions are assigned, and again
/// for a partition whose restore failed.
package struct ChangelogRestorer: Sendable {
    package let kafka: KafkaClientConfiguration
    /// How long one scan may take before the restore fails (and its partitions are held).
    package let timeout: Duration
    package let logger: Logger

    package init(kafka: KafkaClientConfiguration, timeout: Duration = .seconds(600), logger: Logger) {
        (self.kafka, self.timeout, self.logger) = (kafka, timeout, logger)
    }

    /// Hands each partition's rows of `changelog`, from its oldest offset up to `bounds`' offset
    /// for it (nil: where the changelog ends now), to `restores`' restore for it, in offset
    /// order, on a blocking thread; then finishes each. A partition bounded at 0 reads nothing.
    /// Throws the first failure of the scan or of a store; the other partitions' rows stop then.
    package func restore(
        _ changelog: String, bounds: [Int: Int64?], into restores: [Int: any PartitionRestore]
    ) async throws {
        let read = bounds.filter { $0.value.map { $0 > 0 } ?? true }
        if !read.isEmpty {
            let failure = RestoreFailure()
            try await KafkaTopicSnapshot.scan(
                changelog, from: Dictionary(uniqueKeysWithValues: read.keys.map { (Int32($0), Int64(0)) }),
                upTo: Dictionary(
                    uniqueKeysWithValues: read.compactMap { key, bound in bound.map { (Int32(key), $0) } }),
                configuration: kafka, timeout: timeout, logger: logger
            ) { message in
                guard failure.error == nil, let restore = restores[Int(message.partition)] else { return }
                do { try restore.restore(message) } catch { failure.error = error }
            }
            if let error = failure.error { throw error }
        }
        for (_, restore) in restores.sorted(by: { $0.key < $1.key }) { try await restore.finish() }
        logger.debug(
            "changelog restored",
            metadata: ["kafka.topic": "\(changelog)", "kafka.partitions": "\(bounds.keys.sorted())"])
    }

    /// A store's first failure during a scan; only the scan's blocking thread touches it.
    private final class RestoreFailure: @unchecked Sendable {
        var error: (any Error)?
    }
}
