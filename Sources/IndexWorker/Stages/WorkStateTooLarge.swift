import ArtpipeSupport

/// A row that would make a work's state larger than the works stage keeps
/// (``WorkStore/maximumStateBytes``): for good, the same row makes it so again.
package struct WorkStateTooLarge: ClassifiedError {
    package let work: WorkKey
    package let bytes: Int
    package let limit: Int

    package var failureClass: FailureClass { .forGood }

    package var description: String {
        "the work \(work) would hold \(bytes) bytes of rows, more than the \(limit) a work's state may: the row is refused"
    }
}
