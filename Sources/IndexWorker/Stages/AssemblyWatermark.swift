import KafkaClient
import Logging
import PipelineContract
import StreamTasks
import Synchronization

/// When the shared files may show a set of page summaries (docs/architecture.md, "How the
/// shared files wait"): the ``AssemblyTarget`` they wait for, moved on once the works stage has
/// gone past the rows those pages wrote, reached once every shard's summary has read the
/// artists' rows written by then. It sees the stages only through their ``StageProgress`` and
/// the broker only through ``Questions``, so a test drives it without either.
final class AssemblyWatermark: Sendable {
    /// What it may ask the broker.
    struct Questions: Sendable {
        /// The works group's committed offsets on `artpipe.index-works`, by partition.
        var worksCommitted: @Sendable () async throws -> [Int64]
        /// Where `artpipe.index-works` ends, by partition.
        var worksEnds: @Sendable () async throws -> [Int64]
        /// Where `artpipe.index-artists` ends, by partition.
        var artistsEnds: @Sendable () async throws -> [Int64]

        /// The questions asked of `offsets`, for the index's groups.
        static func asking(_ offsets: KafkaGroupPositions) -> Questions {
            Questions(
                worksCommitted: {
                    try await offsets.committed(group: IndexStages.worksGroup, topic: ArtpipeTopic.indexWorks)
                },
                worksEnds: { try await offsets.ends(of: ArtpipeTopic.indexWorks, group: IndexStages.worksGroup) },
                artistsEnds: {
                    try await offsets.ends(of: ArtpipeTopic.indexArtists, group: IndexStages.artistsGroup)
                })
        }
    }

    private let pages: StageProgress
    private let works: StageProgress
    private let artists: StageProgress
    private let questions: Questions
    /// Where `artpipe.index-works` ends for the rows of the pages this copy holds.
    private let pagesWrote: WrittenEnds
    /// Where `artpipe.index-artists` ends for the rows this copy's works stage wrote.
    private let worksWrote: WrittenEnds
    /// How long ``advance(waiting:)`` waits for this copy's works stage, and ``catchUp(held:)``
    /// for its shards.
    let catchUpWithin: Duration
    private let target = Mutex<AssemblyTarget?>(nil)
    /// What the shared files last waited for, so it is logged once.
    private let lastWait = Mutex<String?>(nil)
    private let logger: Logger

    init(
        pages: StageProgress, works: StageProgress, artists: StageProgress, questions: Questions,
        acknowledged: KafkaAcknowledgedOffsets?, catchUpWithin: Duration, logger: Logger
    ) {
        (self.pages, self.works, self.artists, self.questions) = (pages, works, artists, questions)
        pagesWrote = WrittenEnds(topic: ArtpipeTopic.indexWorks, acknowledged: acknowledged)
        worksWrote = WrittenEnds(topic: ArtpipeTopic.indexArtists, acknowledged: acknowledged)
        (self.catchUpWithin, self.logger) = (catchUpWithin, logger)
    }

    /// Whether the shared files wait for a target.
    var isAiming: Bool { target.withLock { $0 != nil } }

    /// Whether a target waits for the works stage to go past its pages' rows.
    var awaitsWorks: Bool { target.withLock { $0.map { $0.artistsEnd == nil } ?? false } }

    /// Where `artpipe.index-artists` ended once the works stage went past the target's rows.
    var artistsEnd: [Int64]? { target.withLock { $0?.artistsEnd } }

    /// `changed` page summaries, each with where `artpipe.index-works` ends once they were taken:
    /// every row their pages wrote is acknowledged, so below those ends (``WrittenEnds``: the
    /// pages were summarised under the newest assignment or an older one). None: nothing is asked.
    func due(_ changed: [PagesSummary]) async throws -> [PagesSummary] {
        guard !changed.isEmpty else { return [] }
        let ends = try await pagesWrote.ends(under: pages.assignments.latest, ask: questions.worksEnds)
        return changed.map { summary in
            var summary = summary
            summary.worksEnd = ends
            return summary
        }
    }

    /// Aims at the page summaries `pageSummaries` (read with `versions`) unless a target waits
    /// already; returns false when one of them names no end of `artpipe.index-works` (no target).
    func aim(at pageSummaries: [PagesSummary], versions: SummaryVersions) async throws -> Bool {
        guard !isAiming else { return true }
        let aimed = AssemblyTarget(pages: pageSummaries, versions: versions)
        guard aimed.worksEnd != nil else {
            waiting(for: "a page summary that names the end of \(ArtpipeTopic.indexWorks)")
            return false
        }
        target.withLock { $0 = aimed }
        try await advance()
        return true
    }

    /// Moves the target on once the works stage has gone past the end of `artpipe.index-works`
    /// its page summaries name: it then waits for the shards to read to where
    /// `artpipe.index-artists` ends at that moment. Past: when this copy's works stage holds
    /// every partition, restored, the offsets it finished here, which its next commit would
    /// carry (no question to the broker, and no wait for that commit, every 100 ms), waited for
    /// up to ``catchUpWithin`` when `waiting`; the artists' end is then what this copy wrote
    /// (``WrittenEnds``). Else the works group's committed offsets, whichever copies hold its
    /// partitions, and the artists' end from the broker.
    func advance(waiting wait: Bool = false) async throws {
        guard var moved = target.withLock({ $0 }), let worksEnd = moved.worksEnd, moved.artistsEnd == nil else {
            return
        }
        if works.ready.isSuperset(of: 0..<worksEnd.count) {
            let works = self.works
            let settled = { works.hasSettled(ArtpipeTopic.indexWorks, worksEnd) }
            guard await within(wait ? catchUpWithin : .zero, until: settled) else {
                waiting(for: "the works stage to go past \(worksEnd)")
                return
            }
            // Read once settled: the rows up to the works' end were handled under it or an older one.
            moved.artistsEnd = try await worksWrote.ends(under: works.assignments.latest, ask: questions.artistsEnds)
        } else {
            let committed = try await questions.worksCommitted()
            guard committed.count >= worksEnd.count, zip(committed, worksEnd).allSatisfy({ $0 >= $1 }) else {
                waiting(for: "the works stage to commit \(worksEnd) (at \(committed))")
                return
            }
            moved.artistsEnd = try await questions.artistsEnds()
        }
        // Rounds run one at a time: nothing replaced the target meanwhile.
        target.withLock { $0 = moved }
    }

    /// Waits, at most ``catchUpWithin``, for the shards `held` to read to the end of
    /// `artpipe.index-artists` the target waits for. The works stage has just written those rows,
    /// and the artist stage applies them within a fraction of a second: a round that read its
    /// positions before them took a second writing round, which put a round's time (half a
    /// second at ten million works) on a new page's path.
    func catchUp(held: Set<Int>) async {
        guard let end = artistsEnd else { return }
        let artists = self.artists
        _ = await within(catchUpWithin) {
            !held.contains { shard in
                shard < end.count
                    && (artists.position(of: ArtpipeTopic.indexArtists, partition: shard) ?? -1) < end[shard]
            }
        }
    }

    /// The target, once every shard's summary has read past its end of the artists' topic:
    /// given once, and no longer waited for. Nil while it waits (what for is logged).
    func reached(by shards: [ShardSummary]) -> AssemblyTarget? {
        guard let aimed = target.withLock({ $0 }) else { return nil }
        // Without its end of the artists' topic it waits for the works stage, as logged then.
        guard aimed.artistsEnd != nil else { return nil }
        guard aimed.isReached(by: shards) else {
            waiting(for: "the shards to read \(aimed.artistsEnd ?? []) (at \(shards.map { $0.position ?? -1 }))")
            return nil
        }
        waiting(for: nil)
        target.withLock { $0 = nil }
        return aimed
    }

    /// The shared files wait for nothing: they show what there is.
    func atRest() {
        waiting(for: nil)
    }

    /// Whether `condition` holds within `limit`, looked at every 5 ms: it is this copy's own
    /// progress, not a question to the broker.
    private func within(_ limit: Duration, until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline, (try? await Task.sleep(for: .milliseconds(5))) != nil else {
                return false
            }
        }
        return true
    }

    /// Logs what the shared files wait for, at debug level, when it changes.
    private func waiting(for reason: String?) {
        let changed = lastWait.withLock { last in
            defer { last = reason }
            return last != reason
        }
        if changed, let reason { logger.debug("shared files waiting", metadata: ["for": "\(reason)"]) }
    }
}
