import ArtpipeSupport

/// What a partition's restore throws for a changelog row it leaves out: one this build cannot
/// read (another build's, of a later format), where the store can do without it (a repartition
/// topic read as its own changelog, whose live reader sets the same row aside too; a page's
/// entry). ``ChangelogRestorer`` counts it, restores the partition past it, names the first in a
/// warning once the scan ends, and reads on. Any other error a restore throws fails it.
package struct RowLeftOut: ClassifiedError {
    package let reason: any Error

    package init(_ reason: any Error) {
        self.reason = reason
    }

    /// What `read` reads of a row; its failure, as a row left out.
    package static func unlessUnreadable<Value>(_ read: () throws -> Value) throws -> Value {
        do {
            return try read()
        } catch {
            throw RowLeftOut(error)
        }
    }

    package var description: String { "\(reason)" }
    /// Reading the row again cannot change it.
    package var failureClass: FailureClass { .forGood }
}
