import ArtpipeSupport
import Foundation
import PipelineContract

/// Where a worker puts a message that failed for the moment, so its partition moves on: one
/// retry topic per delay, the delay growing with each failure, until the message has failed
/// for longer than `giveUpAfter` and goes to the dead letters with its history.
///
/// Every message of one retry topic waits about the same delay, so a partition's messages
/// come due in offset order and waiting for the first one holds up no later one. A copy due
/// further ahead (a long `Retry-After` on the last topic) holds its partition no longer than
/// the topic's delay, then goes to the back (``holdUntil(_:topic:)``).
package struct RetrySchedule: Sendable, Equatable {
    /// The retry topics, shortest delay first.
    package var topics: [String]
    /// The delay of each topic, growing.
    var delays: [Duration]
    /// How long a message keeps being retried after its first failure.
    var giveUpAfter: Duration

    static let defaultDelays: [Duration] = [.seconds(60), .seconds(600), .seconds(3_600)]
    static let defaultGiveUpAfter: Duration = .seconds(86_400)

    package init(topics: [String], delays: [Duration] = defaultDelays, giveUpAfter: Duration = defaultGiveUpAfter) {
        precondition(!topics.isEmpty && topics.count == delays.count, "one delay per retry topic")
        self.topics = topics
        self.delays = delays
        self.giveUpAfter = giveUpAfter
    }

    /// Where and until when a message waits after its `attempts`-th failure; a server's
    /// `Retry-After` moves it to the first topic whose delay covers it, and is waited out in full.
    package func next(afterAttempts attempts: Int, retryAfter: Duration?, now: Date) -> (topic: String, due: Date) {
        var tier = min(max(attempts - 1, 0), topics.count - 1)
        if let retryAfter {
            let covering = delays.firstIndex { $0 >= retryAfter } ?? topics.count - 1
            tier = max(tier, covering)
        }
        let wait = max(delays[tier], retryAfter ?? .zero)
        return (topics[tier], now.addingTimeInterval(wait.seconds))
    }

    /// Until when a copy read from `topic` may hold the head of its partition: its due time, or,
    /// when that is further ahead than the topic's delay, one delay after it came onto the topic.
    /// Every copy behind it came later and is due no sooner than one delay after that, so none
    /// waits past its own time for it; a copy still not due then goes to the back of the topic.
    package func holdUntil(_ state: RetryState, topic: String) -> Date {
        guard let tier = topics.firstIndex(of: topic), let arrived = state.arrivedAt else { return state.due }
        return min(state.due, arrived.addingTimeInterval(delays[tier].seconds))
    }

    /// The furthest ahead a copy this schedule made can be due: a copy due later carries
    /// headers this schedule did not write, and would hold its partition for nothing.
    var longestWait: Duration { giveUpAfter + (delays.max() ?? .zero) }

    /// True when a message that first failed at `firstFailure` has been retried long enough.
    package func isExhausted(firstFailure: Date, now: Date) -> Bool {
        now.timeIntervalSince(firstFailure) >= giveUpAfter.seconds
    }
}
