import Foundation
import ObjectStorage

/// The objects under `thumbs/` of a bucket that no work can point to any more
/// (`artpipe prune --out s3://…`): the same rule as ``ThumbnailPrunePlan`` for a folder, with
/// each object's `Last-Modified` for its time (a thumb worker that reuses an object older than
/// its `--touch-after` copies it onto itself, which renews that time).
package struct BucketPrunePlan {
    package struct Candidate {
        /// Relative to the bucket's prefix.
        package let path: String
        package let bytes: Int
        /// As the listing gave it: any other value later means it was written or used since.
        let written: Date
    }

    package let candidates: [Candidate]

    package var bytes: Int { candidates.map(\.bytes).saturatingSum() }

    /// Lists `thumbs/` (1,000 keys a request).
    /// - Parameters:
    ///   - referencedPaths: the thumbnail paths the index shows.
    ///   - unsettledObjectNumbers: the works the index shows as pending or failed.
    ///   - cutoff: objects written at or after it stay, by the store's clock.
    package init(
        store: BucketOutputStore, referencedPaths: [String], unsettledObjectNumbers: [String], cutoff: Date
    ) throws {
        let isUnused = ThumbnailPrunePlan.unusedRule(
            referencedPaths: referencedPaths, unsettledObjectNumbers: unsettledObjectNumbers)
        var candidates: [Candidate] = []
        try store.objects(under: "thumbs") { path, bytes, written in
            guard let written, written < cutoff, isUnused(String(path.dropFirst("thumbs/".count))) else { return }
            candidates.append(Candidate(path: path, bytes: bytes, written: written))
        }
        self.candidates = candidates.sorted { $0.path < $1.path }
    }

    /// Why `keepRecent` cannot keep a bucket's objects in use, when it cannot: a thumb worker
    /// renews a reused object's `Last-Modified` only once it is older than its `--touch-after`,
    /// so an object in use can look that old, and must not count as unused before then.
    package static func keepRecentProblem(keepRecent: Duration, touchAfter: Duration) -> String? {
        guard keepRecent <= touchAfter else { return nil }
        return "--keep-recent \(keepRecent.wholeUnitsDescription) must be longer than --touch-after "
            + "\(touchAfter.wholeUnitsDescription): a thumb worker renews an object it reuses only once it is older "
            + "than --touch-after, so a thumbnail in use would look unused and be deleted"
    }

    /// What ``execute(in:report:)`` did.
    package struct Outcome {
        package var removed: [Candidate] = []
        /// Written or used again since the listing.
        package var kept: [Candidate] = []
    }

    /// Removes every candidate nobody wrote or used since the listing, behind the prune fence:
    /// raises it (after waiting out another prune's), checks each candidate's `Last-Modified`
    /// again, deletes in batches of 1,000 while its lease holds, and lowers it. Blocks.
    /// - Parameter report: told of waits, for the user.
    package func execute(in store: BucketOutputStore, report: (String) -> Void) throws -> Outcome {
        try execute(in: store, report: report, timing: .standard, pause: {})
    }

    /// ``execute(in:report:)`` with the fence's timing given, and `pause` called before each
    /// batch's last checks: where a stopped process (a debugger, a frozen VM, a long GC of a
    /// neighbour) would lose its lease without knowing it.
    package func execute(
        in store: BucketOutputStore, report: (String) -> Void, timing: PruneFence.Timing, pause: () -> Void
    ) throws -> Outcome {
        try Self.waitForOtherPrunes(in: store, report: report)
        var fence = PruneFence(generation: UUID().uuidString, running: true, heartbeat: 0)
        var renewed = ContinuousClock.now
        try fence.write(to: store)
        func renewIfDue() throws {
            guard ContinuousClock.now - renewed >= timing.heartbeatInterval else { return }
            let started = ContinuousClock.now
            fence.heartbeat += 1
            try fence.write(to: store)
            renewed = started
        }
        /// Right before a DeleteObjects: the lease still holds, and the fence in the bucket is
        /// still this prune's (a worker that took it as abandoned, or another prune, changed nothing).
        func confirmLease() throws {
            let seen = try PruneFence.read(from: store)
            let held = ContinuousClock.now - renewed
            guard held < timing.leaseDuration, seen == fence else {
                throw ObjectStoreError.configuration(
                    seen == fence
                        ? "the prune's fence was not renewed for \(held.wholeUnitsDescription), longer than its lease "
                            + "(\(timing.leaseDuration.wholeUnitsDescription)); stopped before deleting more (run prune again)"
                        : "the prune's fence in the bucket is no longer this prune's; stopped before deleting more "
                            + "(run prune again)")
            }
        }
        do {
            var outcome = Outcome()
            var doomed: [Candidate] = []
            for candidate in candidates {
                try renewIfDue()
                switch try store.lastModified(of: candidate.path) {
                case .none: continue  // gone already
                // HTTP dates carry whole seconds; a listing may carry milliseconds.
                case .some(let written?)
                where written.timeIntervalSince1970.rounded(.down)
                    == candidate.written.timeIntervalSince1970.rounded(.down):
                    doomed.append(candidate)
                case .some: outcome.kept.append(candidate)
                }
            }
            for start in stride(from: 0, to: doomed.count, by: 1_000) {
                try renewIfDue()
                pause()
                let batch = Array(doomed[start..<min(start + 1_000, doomed.count)])
                // Checked before each request, retries included: a pause anywhere before it is caught.
                try store.remove(batch: batch.map(\.path), confirm: confirmLease)
                outcome.removed += batch
            }
            fence.running = false
            try fence.write(to: store)
            return outcome
        } catch {
            fence.running = false
            try? fence.write(to: store)
            throw error
        }
    }

    /// Returns once no other prune holds the fence: lowered, or left unrenewed for
    /// ``PruneFence/abandonedAfter`` (a prune killed before it lowered it).
    static func waitForOtherPrunes(in store: BucketOutputStore, report: (String) -> Void) throws {
        let watch = PruneFenceWatch()
        var reported = false
        while watch.holds(try PruneFence.read(from: store)) {
            if !reported {
                report(
                    "another prune holds \(store.address(of: PruneFence.path)); waiting until it ends, or up to "
                        + "\(PruneFence.abandonedAfter.wholeUnitsDescription) after it stops renewing it")
                reported = true
            }
            Thread.sleep(forTimeInterval: 5)
        }
    }
}
