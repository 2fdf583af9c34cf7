import KafkaClient

/// A stage's store, kept per partition and restored from a changelog by ``ChangelogRestorer``
/// at each assignment: its state is a function of that changelog's rows.
package protocol RestorableStore: Sendable {
    /// Empties `partition` to be restored under `epoch`, and returns what takes its rows. What
    /// the store is then given under an older epoch is left out.
    func beginRestore(of partition: Int, under epoch: AssignmentEpoch) async throws -> any PartitionRestore
}

/// One partition's restore under way.
package protocol PartitionRestore: AnyObject, Sendable {
    /// One row of the changelog, in offset order, on the restore's blocking thread. A row it
    /// cannot read is left out; a throw is the store's failure, and fails the restore.
    func restore(_ message: KafkaConsumerMessage) throws
    /// Every row is restored: the partition may be handled under its epoch.
    func finish() async throws
}
