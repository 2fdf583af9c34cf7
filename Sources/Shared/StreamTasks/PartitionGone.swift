import ArtpipeSupport

/// A message's partition is no longer held under the assignment it came with (revoked, or its
/// lease ended, while its handler waited for the restore): nothing of it was written. Passes:
/// the runtime, finding the lease ended, commits nothing for it, and its next owner handles it.
package struct PartitionGone: ClassifiedError {
    package let partition: Int

    package init(_ partition: Int) {
        self.partition = partition
    }

    package var failureClass: FailureClass { .forNow(retryAfter: nil) }
    package var description: String {
        "partition \(partition) is no longer held under the assignment its message came with"
    }
}
