import ArtpipeSupport

/// A write refused because the writer may no longer own what it writes: for the moment, since
/// the fence lifts once the writer's groups have confirmed or revoked its partitions.
package struct OutputFencedError: ClassifiedError, Sendable, Equatable {
    package let path: String
    package var failureClass: FailureClass { .forNow }
    package var description: String {
        "not written: this process stalled and may have lost its partitions, so \(path) waits until its consumer groups answer"
    }
}
