import KafkaClient

/// A stage's store, kept per partition and restored from a changelog by ``ChangelogRestorer``
/// at each assignment: its state is a function of that changelog's rows. A partition's rows
/// kept from a clean stop are that function of the changelog up to their checkpoint's offset,
/// and rows read again from an earlier offset change nothing: each row is a key's whole value.
package protocol RestorableStore: Sendable {
    /// Empties `partition` to be restored under `epoch`, and returns what takes its rows. What
    /// the store is then given under an older epoch is left out.
    func beginRestore(of partition: Int, under epoch: AssignmentEpoch) async throws -> any PartitionRestore
}

/// One partition's restore under way.
package protocol PartitionRestore: AnyObject, Sendable {
    /// The changelog offset the restore reads from: 0, or, for a partition whose rows the
    /// store kept from a clean stop (``StoreCheckpoint``), the offset up to which they show it.
    var resumeOffset: Int64 { get }
    /// One row of the changelog, in offset order, on the restore's blocking thread. A row it
    /// leaves out throws ``RowLeftOut`` (counted, and named in a warning); any other throw is
    /// the store's failure, and fails the restore.
    func restore(_ message: KafkaConsumerMessage) throws
    /// Every row is restored: the partition may be handled under its epoch.
    func finish() async throws
}

extension PartitionRestore {
    package var resumeOffset: Int64 { 0 }
}
