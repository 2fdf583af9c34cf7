import Foundation
import Logging
import ObjectStorage
import StreamTasks

/// Writes artist shards into the output (docs/architecture.md, "What a copy publishes, and
/// when"): of a shard's view, the bucket files it renders whose bytes changed, the removal of
/// the buckets rendered that no slice is in any more, and, after the shard's last part, its
/// summary, which says its files are all there. A shard this copy no longer holds under the
/// assignment it was taken under is not written. Keeps, per shard, the assignment it was last
/// written under (a shard under a new one, or whose file another writer replaced, is written
/// whole again) and the summary it last got (one whose position alone moved is written again).
///
/// What the copy knows of the output (``KnownOutput``) and this type's own records are changed
/// under `lock`, the publisher's round lock: ``write(_:last:listing:position:bootstrapped:epoch:)``
/// takes it for those steps only (a shard's files are rendered outside it); the other calls
/// are made with it held.
final class ShardWriter: @unchecked Sendable {
    private let known: KnownOutput
    private let summaries: IndexSummaries
    private let shards: IndexShards
    private let lock: NSLock
    /// Whether a shard is still held under an assignment: asked right before each write.
    private let holds: @Sendable (Int, AssignmentEpoch) -> Bool
    /// Where the gallery is served: the bucket pages' Open Graph properties name it.
    private let site: SiteAddress?
    private let logger: Logger
    /// Each shard's assignment it was last written under.
    private var writtenUnder: [Int: AssignmentEpoch] = [:]
    /// The summary each shard last got.
    private var lastSummaries: [Int: ShardSummary] = [:]

    init(
        known: KnownOutput, summaries: IndexSummaries, shards: IndexShards, lock: NSLock,
        holds: @escaping @Sendable (Int, AssignmentEpoch) -> Bool, site: SiteAddress?, logger: Logger
    ) {
        (self.known, self.summaries, self.shards, self.lock) = (known, summaries, shards, lock)
        (self.holds, self.site, self.logger) = (holds, site, logger)
    }

    /// Forgets every shard's last write: each is written whole at its next turn (the index was
    /// just bootstrapped: its bucket files are due at last). Under the lock.
    func forgetWrites() {
        writtenUnder = [:]
    }

    /// Takes `summary`, as the output holds it, for the shard's last write under `epoch`: its
    /// files are what this copy's lines render (a checkpoint said so, and the output still holds
    /// that summary), so the shard is not written whole at its next turn. Under the lock.
    func adopt(_ summary: ShardSummary, under epoch: AssignmentEpoch) {
        recordWritten(summary, under: epoch)
    }

    /// The output's listing for a round over the shards `held` (each with its assignment), and
    /// which of them are to be written whole: held under another assignment than they were last
    /// written under, or with a file another writer replaced. Listed afresh when a shard of
    /// `ready` is to be written whole (not while one restores: that would list every round).
    /// Under the lock.
    func plan(held: [Int: AssignmentEpoch], ready: Set<Int>) throws -> (
        listing: [String: OutputVersion], whole: @Sendable (Int, AssignmentEpoch) -> Bool
    ) {
        writtenUnder = writtenUnder.filter { held[$0.key] == $0.value }
        let under = writtenUnder
        let listing = try known.listed(again: ready.contains { held[$0] != nil && under[$0] != held[$0] })
        let replaced = known.replaced
        return (listing, { shard, epoch in under[shard] != epoch || replaced.contains(shard) })
    }

    /// Writes again the summary of each shard of `positions` not written this round (`written`)
    /// whose position moved since its last summary, while it is held under the assignment it
    /// was last written under: the assembler waits for positions. Under the lock. Returns each
    /// summary written, with its assignment and sequence number.
    func writeMovedPositions(_ positions: [Int: Int64], held: [Int: AssignmentEpoch], written: Set<Int>) throws
        -> [(shard: Int, epoch: AssignmentEpoch, sequence: Int)]
    {
        var rewritten: [(shard: Int, epoch: AssignmentEpoch, sequence: Int)] = []
        for (shard, position) in positions where !written.contains(shard) && writtenUnder[shard] == held[shard] {
            guard var summary = lastSummaries[shard], (summary.position ?? -1) < position,
                let epoch = held[shard], stillHeld(shard, under: epoch)
            else { continue }
            summary.position = position
            rewritten.append((shard, epoch, try summaries.write(summary)))
            lastSummaries[shard] = summary
        }
        return rewritten
    }

    /// Writes a part of a shard, `view`, taken under `epoch`: the buckets it says changed, or
    /// all of them; `last`: the shard's last part, after which its summary (at `position`) is
    /// written. Until the index is `bootstrapped`, the summary alone, marked unpublished.
    /// `listing` is the round's. Returns how many files were written or removed, and the
    /// sequence number of the published summary written after the last part. Takes the lock.
    func write(
        _ view: ShardView, last: Bool, listing: [String: OutputVersion], position: Int64?, bootstrapped: Bool,
        epoch: AssignmentEpoch
    ) throws -> (files: Int, summary: Int?) {
        var summary = view.summary
        summary.position = position
        // Revoked since the round's picture: its next owner writes it, from what it restored.
        guard stillHeld(view.shard, under: epoch) else { return (0, nil) }
        guard bootstrapped else {
            summary.published = false
            try summaries.write(summary)
            lock.withLock { recordWritten(summary, under: epoch) }
            return (0, nil)
        }
        let content = view.content
        // Only the artists of the buckets rendered are placed (``ShardView/works``: every artist
        // with a slice there): placing every artist of the shard cost each round in proportion
        // to the shard, not to the change.
        let plan = IndexLayout.Plan(content, shards: shards, only: view.buckets.map { _ in Set(view.works.keys) })
        let rendered = { (bucket: Int) in view.buckets?.contains(bucket) ?? true }
        var files: [String: [UInt8]] = [:]
        for bucket in plan.buckets.keys where rendered(bucket) {
            for (path, bytes) in IndexLayout.bucketFiles(bucket, of: content, plan: plan, site: site) {
                files[path] = bytes
            }
        }
        let count = try lock.withLock {
            guard stillHeld(view.shard, under: epoch) else { return 0 }
            var changed: [KnownOutput.Change] = []
            for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
                if let change = try known.change(bytes, at: path, listed: listing[path]) { changed.append(change) }
            }
            var count = try known.write(changed)
            // A bucket rendered that no slice is in any more: its files go. The shard's buckets are
            // looked up in the listing, not the listing (every bucket's files) searched.
            for bucket in stride(from: view.shard, to: IndexLayout.bucketCount, by: shards.count) where rendered(bucket)
            {
                for path in [IndexLayout.worksPath(bucket), GallerySite.bucketPath(bucket)]
                where listing[path] != nil && files[path] == nil {
                    try known.remove(path)
                    count += 1
                }
            }
            return count
        }
        guard last, stillHeld(view.shard, under: epoch) else { return (count, nil) }
        let sequence = try summaries.write(summary)
        lock.withLock { recordWritten(summary, under: epoch) }
        return (count, sequence)
    }

    private func recordWritten(_ summary: ShardSummary, under epoch: AssignmentEpoch) {
        lastSummaries[summary.shard] = summary
        writtenUnder[summary.shard] = epoch
    }

    /// Whether `shard` is still this copy's under the assignment a round's picture showed: a
    /// shard revoked mid-round (its partition empty, or a rebalance) is not written from the
    /// older picture over what its new owner writes.
    private func stillHeld(_ shard: Int, under epoch: AssignmentEpoch) -> Bool {
        if holds(shard, epoch) { return true }
        logger.debug("shard let go mid-round: not written", metadata: ["kafka.partition": "\(shard)"])
        return false
    }
}
