import KafkaClient

/// A partition's restore that applies each row as it comes and needs no last step: what a store
/// whose rows are applied one at a time under its own lock returns from
/// ``RestorableStore/beginRestore(of:under:)``.
package final class RowRestore: PartitionRestore {
    private let apply: @Sendable (KafkaConsumerMessage) throws -> Void
    package let resumeOffset: Int64

    /// - Parameter resumeOffset: where the changelog is read from (``PartitionRestore/resumeOffset``).
    /// - Parameter apply: one row, on the restore's blocking thread (``PartitionRestore/restore(_:)``).
    package init(resumingAt resumeOffset: Int64 = 0, _ apply: @escaping @Sendable (KafkaConsumerMessage) throws -> Void)
    {
        (self.resumeOffset, self.apply) = (resumeOffset, apply)
    }

    package func restore(_ message: KafkaConsumerMessage) throws {
        try apply(message)
    }

    package func finish() async throws {}
}
