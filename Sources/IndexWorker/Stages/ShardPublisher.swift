import ArtpipeSupport
import Foundation
import KafkaClient
import Logging
import NIOPosix
import ObjectStorage
import PipelineContract
import StreamTasks
import Synchronization

/// Publishes what this copy's index stages hold and may publish (docs/architecture.md, "What
/// a copy publishes, and when"): the bucket files and summary of each artist shard it holds
/// that is ready, the summary of each page partition it holds that is restored and ready, and,
/// on the copy that holds shard 0, the shared files once every summary is there, newer than
/// the ones they were last assembled from, and the works of the pages they count have gone
/// through the works and artist stages (``AssemblyTarget``). Only files whose bytes change are
/// written; only files of its own shards' buckets are removed.
///
/// One round at a time (``ShardPublisherService`` runs them in turn), its shards side by side
/// (``shardsAtOnce``), a lock over what the copy knows of the output's files; the output's
/// calls block, so they run on the given thread pool.
package final class ShardPublisher: @unchecked Sendable {
    let output: any OutputStore
    let shards: IndexShards
    let pages: PagesStage
    let works: WorksStage
    let artists: ArtistsStage
    let summaries: IndexSummaries
    /// When the shared files may show the page summaries they wait for.
    let watermark: AssemblyWatermark
    /// What the watermark asks the broker, counted for the tests.
    let offsets: KafkaGroupPositions
    let logger: Logger
    /// Asked before every write (through ``output``), when the copy runs one.
    private let fence: GroupMembershipFence?
    /// The fence's count of stalls when the current round began.
    private let roundStalls: RoundStalls

    /// The count of stalls a round began under, read by the output's fence from any thread.
    private final class RoundStalls: Sendable {
        let value = Atomic<Int>(0)
    }

    /// What this copy knows of the output's index files (under the round's lock).
    private let known: KnownOutput
    /// Writes the shards' files and summaries (its records under the round's lock).
    private let writer: ShardWriter
    /// Over what this copy knows of the output (the properties above and below), a step at a time.
    private let round = NSLock()
    /// The shards a round leaves for later while a new page's rows come.
    private let hold: ShardHold
    /// The shared files as this copy assembles them (under the round's lock).
    private let shared: SharedFiles
    /// Whether the output's index was once complete: until then no bucket file is written.
    private var bootstrapped = false {
        didSet { complete.store(bootstrapped, ordering: .relaxed) }
    }
    /// ``bootstrapped``, read without the round's lock.
    private let complete = Atomic<Bool>(false)
    var relistEvery: Duration { known.relistEvery }
    /// How many of a shard's buckets a part of a whole render holds (of 4,096 over the shards).
    let bucketsPerPart: Int
    /// How many shards a round writes side by side: one renders while another is written or read.
    let shardsAtOnce: Int
    /// ``ShardHold/within`` unless told: longer than a page took through the stages at ten
    /// million works (up to 3.3 s).
    package static let defaultHoldWithin = Duration.seconds(5)
    /// ``shardsAtOnce`` unless told: the publisher's thread pool has a thread for each, and one more.
    package static let defaultShardsAtOnce = 2

    package init(
        output: any OutputStore, partitions: Int, pages: PagesStage, works: WorksStage, artists: ArtistsStage,
        kafka: KafkaClientConfiguration, relistEvery: Duration = .seconds(1), bucketsPerPart: Int = 32,
        shardsAtOnce: Int = defaultShardsAtOnce, catchUpWithin: Duration = .milliseconds(200),
        holdWithin: Duration = defaultHoldWithin, acknowledged: KafkaAcknowledgedOffsets? = nil,
        fence: GroupMembershipFence? = nil, site: SiteAddress? = nil, logger: Logger
    ) {
        let roundStalls = RoundStalls()
        self.roundStalls = roundStalls
        self.fence = fence
        // Every write and removal, summaries' too, asks the fence, and is refused to a round
        // that began before a stall: its picture of what the copy holds may be stale.
        self.output =
            fence.map { fence in
                FencedOutputStore(output) {
                    fence.writableRound == roundStalls.value.load(ordering: .acquiring)
                }
            } ?? output
        (self.bucketsPerPart, self.shardsAtOnce) = (bucketsPerPart, max(shardsAtOnce, 1))
        hold = ShardHold(within: holdWithin)
        shards = IndexShards(count: partitions)
        known = KnownOutput(output: self.output, shards: shards, relistEvery: relistEvery)
        self.pages = pages
        self.works = works
        self.artists = artists
        // Through the fenced output: a summary is a write like any other.
        summaries = IndexSummaries(output: self.output)
        shared = SharedFiles(known: known, summaries: summaries, layout: shards, site: site, logger: logger)
        let progress = artists.progress
        writer = ShardWriter(
            known: known, summaries: summaries, shards: shards, lock: round,
            holds: { progress.holds($0, under: $1) }, site: site, logger: logger)
        // How long a round of a complete index waits for the rows its target waits for to go
        // through this copy's works stage, and then for its shards to read them.
        offsets = KafkaGroupPositions(configuration: kafka, logger: logger)
        watermark = AssemblyWatermark(
            pages: pages.progress, works: works.progress, artists: artists.progress,
            questions: .asking(offsets), acknowledged: acknowledged,
            catchUpWithin: catchUpWithin, logger: logger)
        self.logger = logger
    }

    /// Whether a round should come soon rather than at the next interval: the stages read
    /// something since the last call, or the shared files wait for the stages to reach a target.
    package func hasNews() -> Bool {
        // Both taken, so neither carries an old change into the next call.
        let moved = [artists.progress.takeMoved(), pages.progress.takeMoved()].contains(true)
        return moved || watermark.isAiming
    }

    /// What ``RoundSchedule`` needs to know of the publisher between rounds.
    var signals: RoundSchedule.Signals {
        RoundSchedule.Signals(complete: isComplete, aiming: watermark.isAiming)
    }

    /// Whether the output's index was once complete: from then on a round is on a new page's path.
    var isComplete: Bool { complete.load(ordering: .relaxed) }

    /// Removes what writes killed mid-way (a SIGKILL) left in a folder output: temporary files
    /// of the index's files and of the summaries, old enough that no live copy is writing them.
    /// Blocks: call it off the cooperative pool.
    package func removeStaleTemporaries() -> Int {
        guard let folder = ((output as? FencedOutputStore)?.base ?? output) as? FolderOutputStore else { return 0 }
        let folders = [
            "", IndexLayout.worksFolder, IndexLayout.galleryFolder, IndexSummaries.folder,
            IndexSummaries.shardsFolder, IndexSummaries.pagesFolder,
        ]
        return folders.map { AtomicFile.removeStaleTemporaries(in: folder.directory.appendingPathComponent($0)) }
            .reduce(0, +)
    }

    /// One round; returns how many files it wrote or removed.
    @discardableResult
    package func publish(threadPool: NIOThreadPool = .singleton) async throws -> Int {
        // How long each part of the round took, for `--log-level debug`.
        var phases = RoundPhases()
        // A round begun while the copy is fenced writes nothing, even once the fence lifts:
        // its picture of what the copy holds may be from before librdkafka revoked it.
        if let fence { roundStalls.value.store(fence.writableRound ?? -1, ordering: .releasing) }
        let assignments = artists.progress.assignments
        let held = assignments.held
        let ready = artists.progress.ready
        // Asked before the positions are read: shards that read to the target's end this round
        // let this round assemble, where asking after put a round more on every page's path.
        if ready.contains(0) { try await watermark.advance(waiting: isComplete) }
        phases.end("target")
        // Only once the index is complete: until then the shards are far behind, and a round has
        // nothing to wait for.
        if isComplete { await watermark.catchUp(held: ready) }
        phases.end("catch_up")
        // The page summaries to write: a changed one means a page's rows are on their way.
        let pagesHeld = pages.progress.held
        let pageSummaries = await pages.states.summaries(of: pages.progress.ready)
        let changedSummaries = try await threadPool.runIfActive {
            try pageSummaries.filter { try self.summaries.changes($0) }
        }
        let writable = ready.subtracting(heldBack(ready, pagesChanged: !changedSummaries.isEmpty))
        // Read before the works are taken: they hold at least what was read up to here. Under
        // the assignment of the round's picture only: a position read under a newer one would
        // be written into a summary of the older one's works.
        var positions: [Int: Int64] = [:]
        for shard in writable {
            guard let epoch = held[shard] else { continue }
            positions[shard] = artists.progress.position(
                of: ArtpipeTopic.indexArtists, partition: shard, under: epoch)
        }
        try await artists.shards.keep(assignments)
        let bootstrapped = try await threadPool.runIfActive {
            try self.round.withLock {
                if !self.bootstrapped, try self.summaries.isBootstrapped() {
                    // Every shard held is written whole now, its bucket files at last.
                    self.bootstrapped = true
                    self.writer.forgetWrites()
                }
                return self.bootstrapped
            }
        }
        // Looked at once the output's index is complete: until then no bucket file is published.
        let vouched = bootstrapped ? try await artists.shards.takeVouched(held: held) : [:]
        let (listing, again, adopted, replaced) = try await threadPool.runIfActive {
            try self.round.withLock {
                let adopted = try self.adopt(vouched, held: held)
                let (listing, again) = try self.writer.plan(held: held, ready: ready)
                return (listing, again, adopted, self.known.replaced)
            }
        }
        for (shard, publication) in adopted {
            if let epoch = held[shard] { await artists.shards.published(shard, epoch: epoch, publication) }
        }
        // A file another writer replaced: until the shard is written whole again, what the
        // output holds of it is not what its lines render.
        for shard in replaced { await artists.shards.republish(shard) }
        phases.end("listing")
        // Where the page summaries' rows end, asked while the shards are written: it does not depend
        // on them, and asking the broker after them put a request's time on every page's path.
        async let due = watermark.due(changedSummaries)
        let round = ShardRound(listing: listing, again: again, positions: positions, bootstrapped: bootstrapped)
        var count = 0
        do {
            count += try await publishShards(
                writable.sorted().compactMap { shard in held[shard].map { (shard, $0) } }, in: round,
                threadPool: threadPool)
            phases.end("shards")
            let summariesToWrite = try await due
            phases.end("offsets")
            let (positionsRead, written) = (positions, round.taken.withLock { $0 })
            let rewritten = try await threadPool.runIfActive {
                try self.round.withLock {
                    let rewritten = try self.writer.writeMovedPositions(positionsRead, held: held, written: written)
                        .map { ($0.shard, $0.epoch, try self.publication(of: $0.shard, record: $0.sequence)) }
                    // Each page partition's only while it is held under the round's picture.
                    for summary in summariesToWrite {
                        guard let epoch = pagesHeld[summary.partition],
                            self.pages.progress.holds(summary.partition, under: epoch)
                        else { continue }
                        try self.summaries.write(summary)
                    }
                    return rewritten
                }
            }
            for (shard, epoch, publication) in rewritten {
                await artists.shards.published(shard, epoch: epoch, publication, rewritten: true)
            }
        } catch {
            // Taken but perhaps not written: the next round writes them again.
            for shard in round.taken.withLock({ $0 }) { await artists.shards.republish(shard) }
            throw error
        }
        phases.end("writes")
        if ready.contains(0), let shardZero = held[0] {
            count += try await assemble(threadPool: threadPool, shardZero: shardZero)
        } else {
            try await threadPool.runIfActive { self.round.withLock { self.shared.forget() } }
        }
        phases.end("assembly")
        logger.debug(
            "publish round",
            metadata: phases.metadata(
                files: count, shards: round.taken.withLock { $0.count }, held: ready.count - writable.count))
        return count
    }

    /// What every shard of a round is written with.
    private final class ShardRound: Sendable {
        let listing: [String: OutputVersion]
        /// Whether a shard under an assignment is written whole again.
        let again: @Sendable (Int, AssignmentEpoch) -> Bool
        /// How far each shard was read before its works were taken.
        let positions: [Int: Int64]
        let bootstrapped: Bool
        /// The shards taken so far: marked before, so a part written and then a failure
        /// leaves the shard to write again.
        let taken = Mutex<Set<Int>>([])

        init(
            listing: [String: OutputVersion], again: @escaping @Sendable (Int, AssignmentEpoch) -> Bool,
            positions: [Int: Int64], bootstrapped: Bool
        ) {
            (self.listing, self.again, self.positions, self.bootstrapped) = (listing, again, positions, bootstrapped)
        }
    }

    /// Writes `shards` (each with the assignment it is held under), ``shardsAtOnce`` side by
    /// side: one's buckets are rendered while another's are read or written. Returns how many
    /// files were written or removed.
    private func publishShards(_ shards: [(Int, AssignmentEpoch)], in round: ShardRound, threadPool: NIOThreadPool)
        async throws
        -> Int
    {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var pending = shards[...]
            for _ in 0..<shardsAtOnce {
                guard let (shard, epoch) = pending.popFirst() else { break }
                group.addTask {
                    try await self.publishShard(shard, epoch: epoch, in: round, threadPool: threadPool)
                }
            }
            var count = 0
            while let written = try await group.next() {
                count += written
                guard let (shard, epoch) = pending.popFirst() else { continue }
                group.addTask {
                    try await self.publishShard(shard, epoch: epoch, in: round, threadPool: threadPool)
                }
            }
            return count
        }
    }

    /// Writes one shard: a part of its buckets at a time when whole, each part's works read
    /// from the state's file as its turn comes and let go once written (a shard's works whole
    /// in memory took 2.3-2.7 GB a copy at 10 million works).
    private func publishShard(_ shard: Int, epoch: AssignmentEpoch, in round: ShardRound, threadPool: NIOThreadPool)
        async throws -> Int
    {
        let again = round.again(shard, epoch)
        // Written again whole: what this copy knows of the shard's files is read anew, once,
        // before its first part.
        if again { try await threadPool.runIfActive { self.round.withLock { self.known.forgetFiles(of: shard) } } }
        round.taken.withLock { _ = $0.insert(shard) }
        let written = Mutex(0)
        // The sequence number of the published summary written after the shard's last part.
        let summary = Mutex<Int?>(nil)
        let (listing, position, bootstrapped) = (round.listing, round.positions[shard], round.bootstrapped)
        // Until the index is bootstrapped only the shard's summary is written.
        let (wasTaken, view) = try await artists.shards.take(
            shard, epoch: epoch, always: again, shards: shards, summaryOnly: !bootstrapped,
            bucketsPerPart: bucketsPerPart
        ) { part, last in
            // A part of a shard written whole: on the state's threads, the shard locked across its parts.
            let (files, sequence) = try self.writer.write(
                part, last: last, listing: listing, position: position, bootstrapped: bootstrapped,
                epoch: epoch)
            written.withLock { $0 += files }
            if let sequence { summary.withLock { $0 = sequence } }
        }
        if let view {
            // On this pool, not the state's: the artist stage's rows need those threads meanwhile.
            let (files, sequence) = try await threadPool.runIfActive {
                try self.writer.write(
                    view, last: true, listing: listing, position: position, bootstrapped: bootstrapped,
                    epoch: epoch)
            }
            written.withLock { $0 += files }
            if let sequence { summary.withLock { $0 = sequence } }
        }
        if !wasTaken { round.taken.withLock { _ = $0.remove(shard) } }
        if let sequence = summary.withLock({ $0 }) {
            let publication = try await threadPool.runIfActive {
                try self.round.withLock { try self.publication(of: shard, record: sequence) }
            }
            await artists.shards.published(shard, epoch: epoch, publication)
        }
        return written.withLock { $0 }
    }

    /// What the output holds of `shard` now, its summary at sequence number `record`: its
    /// files as this copy knows them. Under the round's lock.
    private func publication(of shard: Int, record: Int) throws -> StoreCheckpoint.Publication {
        StoreCheckpoint.Publication(record: record, files: try known.filesDigest(of: shard))
    }

    /// Takes as written the shards a checkpoint vouched for (``ShardStates/takeVouched(held:)``),
    /// each held under the round's picture, where the output holds what the checkpoint says:
    /// the shard's summary at the sequence number it names, published, and its files at the
    /// versions it digested, as listed now. Their files are what the lines kept render, so only
    /// what rows change from here on is rendered. Any other is written whole at its turn, as
    /// after a full restore. Returns what the output holds of each shard taken. Under the
    /// round's lock, the index bootstrapped.
    private func adopt(_ vouched: [Int: StoreCheckpoint.Publication], held: [Int: AssignmentEpoch]) throws
        -> [Int: StoreCheckpoint.Publication]
    {
        guard !vouched.isEmpty else { return [:] }
        try known.relistIfDue(again: true)
        var adopted: [Int: StoreCheckpoint.Publication] = [:]
        for (shard, publication) in vouched.sorted(by: { $0.key < $1.key }) {
            guard let epoch = held[shard] else { continue }
            let metadata: Logger.Metadata = [
                "kafka.partition": "\(shard)", "summary.sequence": "\(publication.record)",
            ]
            let stored = try summaries.stored(shard: shard)
            let refusal: String? =
                if stored?.sequence != publication.record || stored?.summary.published == false {
                    "the output no longer holds the summary its checkpoint names"
                } else if try known.filesDigest(of: shard) != publication.files {
                    "its files in the output changed since it published them"
                } else {
                    nil
                }
            guard let stored, refusal == nil else {
                logger.info(
                    "a shard kept from a clean stop is rendered whole: \(refusal ?? "")", metadata: metadata)
                continue
            }
            writer.adopt(stored.summary, under: epoch)
            try known.watchFiles(of: shard)
            adopted[shard] = publication
            logger.info(
                "a shard kept from a clean stop keeps its published files: only what changes from here on is rendered",
                metadata: metadata)
        }
        return adopted
    }

    /// Whether `shard` is still this copy's under the assignment a round's picture showed: the
    /// shared files, on shard 0's holder, are not written from an older picture.
    private func stillHeld(_ shard: Int, under epoch: AssignmentEpoch) -> Bool {
        if artists.progress.holds(shard, under: epoch) { return true }
        logger.debug("shard let go mid-round: not written", metadata: ["kafka.partition": "\(shard)"])
        return false
    }

    /// The shared files, when every summary is there, newer than what they were built from,
    /// and the target of the page summaries they show is reached.
    /// - Parameter shardZero: the assignment shard 0 was held under in the round's picture: the
    ///   shared files are written only while it still is.
    private func assemble(threadPool: NIOThreadPool, shardZero: AssignmentEpoch) async throws -> Int {
        guard
            let (shardSummaries, pageSummaries, versions) = try await threadPool.runIfActive({
                try self.summaries.read(count: self.shards.count)
            })
        else { return 0 }
        if !watermark.isAiming {
            // What the shared files show already: no target, and no question to the broker (a
            // pipeline at rest asked two every round).
            if let paths = try await threadPool.runIfActive({
                self.round.withLock { self.shared.shown(shards: shardSummaries, pages: pageSummaries) }
            }) {
                watermark.atRest()
                return try await threadPool.runIfActive {
                    try self.round.withLock {
                        guard self.stillHeld(0, under: shardZero) else { return 0 }
                        return try self.shared.removeStray(keeping: paths)
                    }
                }
            }
            guard try await watermark.aim(at: pageSummaries, versions: versions) else { return 0 }
        }
        guard let target = watermark.reached(by: shardSummaries) else { return 0 }
        let (assembledFrom, pagesShown) = (target.versions(with: versions), target.pages)
        return try await threadPool.runIfActive {
            try self.round.withLock {
                guard self.stillHeld(0, under: shardZero) else { return 0 }
                guard self.bootstrapped else {
                    // Complete once: the shards write their files, then the shared files follow.
                    try self.summaries.markBootstrapped(assembledFrom)
                    self.logger.info("index complete for the first time in this output: publishing its files")
                    return 0
                }
                // Every shard's files written since: the manifest names none that is not there.
                guard shardSummaries.allSatisfy({ $0.published != false }) else { return 0 }
                return try self.shared.assemble(shards: shardSummaries, pages: pagesShown, from: assembledFrom)
            }
        }
    }

    /// The shards of `ready` this round leaves for a later one (``ShardHold``): only on a copy
    /// whose index is complete and that assembles it, the one that knows the target.
    private func heldBack(_ ready: Set<Int>, pagesChanged: Bool) -> Set<Int> {
        let assembles = isComplete && ready.contains(0)
        let progress = artists.progress
        // Asked every round, whether or not it assembles: a round that holds none restarts the limit.
        return hold.heldBack(
            ready, awaitingRows: assembles && (pagesChanged || watermark.awaitsWorks),
            artistsEnd: assembles ? watermark.artistsEnd : nil,
            position: { progress.position(of: ArtpipeTopic.indexArtists, partition: $0) })
    }
}
