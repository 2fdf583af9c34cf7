import Synchronization

/// Which of its shards a publish round leaves for a later one, on the copy that assembles a
/// complete index: those whose rows for a new page are still on their way. All of them while the
/// page's rows have not gone through the works stage (its page summary just changed, or the
/// target waits for the works stage), then those that have not read to the target's end of
/// `artpipe.index-artists`. A shard written as its rows came was written two or three times for
/// one page, each time taking the CPU the stages needed (88-415 ms a round at ten million works).
///
/// Rounds hold shards back for ``within`` at most, counted from the first round that held one
/// after a round that held none: a pipeline that is never at rest then has its shards written as
/// their rows come, as before.
final class ShardHold: Sendable {
    let within: Duration
    /// When the rounds began holding shards back; nil after a round that held none.
    private let since = Mutex<ContinuousClock.Instant?>(nil)

    init(within: Duration) {
        self.within = within
    }

    /// The shards of `ready` to leave for a later round.
    /// - Parameter awaitingRows: a new page's rows have not all gone through the works stage.
    /// - Parameter artistsEnd: where `artpipe.index-artists` ended once they had, by partition.
    /// - Parameter position: how far a shard has read `artpipe.index-artists`.
    func heldBack(
        _ ready: Set<Int>, awaitingRows: Bool, artistsEnd: [Int64]?, position: (Int) -> Int64?,
        now: ContinuousClock.Instant = .now
    ) -> Set<Int> {
        var awaited: Set<Int> = []
        if awaitingRows {
            awaited = ready
        } else if let artistsEnd {
            awaited = ready.filter { shard in shard < artistsEnd.count && (position(shard) ?? -1) < artistsEnd[shard] }
        }
        return since.withLock { since in
            guard !awaited.isEmpty else {
                since = nil
                return []
            }
            let start = since ?? now
            since = start
            return now - start < within ? awaited : []
        }
    }
}
