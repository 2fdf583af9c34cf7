/// What later revisions of the sample collection do to a work: about 5% of works change per
/// revision (title, maker, image) and about 1% are deleted, each at that revision's time, so
/// a harvest of revision 0 followed by an incremental harvest of revision N can be checked
/// against a full harvest of revision N.
package struct SampleRevision: Sendable, Equatable {
    /// The work as the revision has it; nil once deleted.
    package let work: SampleWork?
    /// The last revision that changed or deleted it (0: never touched).
    package let changedAt: Int
    /// A different image URL for the same picture, when a revision replaced the image.
    let imageVersion: Int?

    static let changeRate = 0.05
    static let deletionRate = 0.01

    /// `work` at `revision` of a collection made from `seed`, with `makers` to move works between.
    static func of(_ work: SampleWork, at revision: Int, seed: UInt64, makers: [String]) -> SampleRevision {
        var current: SampleWork? = work
        var changedAt = 0
        var imageVersion: Int?
        for step in stride(from: 1, through: revision, by: 1) {
            guard let before = current else { break }
            var random = SampleRandom(seed: seed &* 0x9E37_79B9 &+ UInt64(step) &* 0x85EB_CA6B &+ UInt64(work.id))
            if random.chance(deletionRate) {
                current = nil
                changedAt = step
                break
            }
            guard random.chance(changeRate) else { continue }
            let maker = random.chance(0.5) && !makers.isEmpty ? random.pick(makers) : before.maker
            current = SampleWork(
                id: before.id, objectNumber: before.objectNumber, title: "\(work.title) (revised \(step))",
                maker: maker, image: before.image)
            if before.image != nil { imageVersion = step }
            changedAt = step
        }
        return SampleRevision(work: current, changedAt: changedAt, imageVersion: imageVersion)
    }
}

extension SampleCollection {
    /// Every work at `revision`, deleted ones included (as nil `work`), in id order.
    package func revision(_ revision: Int) -> [(original: SampleWork, state: SampleRevision)] {
        let makers = Array(Set(works.map(\.maker))).sorted()
        return works.map { ($0, SampleRevision.of($0, at: revision, seed: configuration.seed, makers: makers)) }
    }
}
