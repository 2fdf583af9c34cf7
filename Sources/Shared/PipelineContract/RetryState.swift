import Foundation
import KafkaClient

/// The history of a message that failed for the moment, carried in the headers of its copy on
/// a retry topic: how often and since when it failed, when to try it next, and why.
///
/// A retry copy keeps the original key, value and headers, so the worker handles it like the
/// original; the dead letter it may end as carries the same history.
package struct RetryState: Sendable, Equatable {
    package static let attemptsHeader = "artpipe-retry-attempts"
    package static let firstFailureHeader = "artpipe-retry-first-failure"
    package static let dueHeader = "artpipe-retry-due"
    static let historyHeader = "artpipe-retry-history"
    /// When a copy not yet due went to the back of its retry topic (``RetrySchedule/holdUntil(_:topic:)``).
    package static let parkedHeader = "artpipe-retry-parked"
    /// Entries kept in the history: the first and the latest ones.
    package static let maxHistory = 12
    /// Longer reasons are cut in the history.
    package static let maxReasonLength = 240

    /// One failed attempt.
    package struct Attempt: Sendable, Equatable {
        package var at: Date
        package var reason: String

        package init(at: Date, reason: String) {
            self.at = at
            self.reason = reason
        }
    }

    /// Failed attempts so far.
    package var attempts: Int
    package var firstFailure: Date
    /// When the next attempt is due.
    package var due: Date
    /// The first and the latest failed attempts, oldest first.
    package var history: [Attempt]
    /// When the copy last went to the back of its topic without an attempt, if it did.
    package var parkedAt: Date?

    /// When this copy came onto its retry topic: parked there, or failed last; nil when the
    /// headers say neither.
    package var arrivedAt: Date? { parkedAt ?? history.last?.at }

    package init(attempts: Int, firstFailure: Date, due: Date, history: [Attempt]) {
        self.attempts = attempts
        self.firstFailure = firstFailure
        self.due = due
        self.history = history
    }

    /// The reason of the latest failure.
    package var lastReason: String { history.last?.reason ?? "" }

    /// The most attempts a copy may claim: far more than any schedule makes in `--retry-for`.
    static let maxAttempts = 1_000_000

    /// The state a message carries; nil when it never failed, or when its headers do not read
    /// as a state (``problem(in:)`` says why).
    package init?(headers: [KafkaHeader]) {
        guard let attempts = headers.value(of: Self.attemptsHeader).flatMap(Int.init),
            (1...Self.maxAttempts).contains(attempts),
            let first = headers.value(of: Self.firstFailureHeader).flatMap(Self.date),
            let due = headers.value(of: Self.dueHeader).flatMap(Self.date)
        else { return nil }
        self.attempts = attempts
        self.firstFailure = first
        self.due = due
        self.history = (headers.value(of: Self.historyHeader) ?? "").split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let at = Self.date(String(parts[0])) else { return nil }
            return Attempt(at: at, reason: String(parts[1]))
        }
        self.parkedAt = headers.value(of: Self.parkedHeader).flatMap(Self.date)
    }

    /// Why a message's retry headers are poison: present but out of range, or due further
    /// ahead than `longestWait` from now (a copy that would hold its partition for ever).
    /// Nil for a message that never failed and for a readable state.
    package static func problem(in headers: [KafkaHeader], longestWait: Duration, now: Date = Date()) -> String? {
        let names = [attemptsHeader, firstFailureHeader, dueHeader]
        guard names.contains(where: { headers.value(of: $0) != nil }) else { return nil }
        guard let state = RetryState(headers: headers) else {
            let values = names.map { "\($0)=\(headers.value(of: $0).map { String($0.prefix(40)) } ?? "none")" }
            return "unreadable retry headers (\(values.joined(separator: ", ")))"
        }
        if state.due.timeIntervalSince(now) > Double(longestWait.components.seconds) {
            return
                "\(dueHeader) is \(Self.text(state.due)), further ahead than any retry waits (\(longestWait.components.seconds) s)"
        }
        return nil
    }

    /// The state after one more failure at `now`, due again at `due`.
    package static func after(_ previous: RetryState?, failedAt now: Date, reason: String, due: Date) -> RetryState {
        let line = reason.replacingOccurrences(of: "\n", with: " ")
        let entry = Attempt(
            at: now, reason: line.count > maxReasonLength ? String(line.prefix(maxReasonLength)) + "…" : line)
        var history = (previous?.history ?? []) + [entry]
        if history.count > maxHistory {
            // The first failure says how it began, the latest ones how it goes.
            history = [history[0]] + history.suffix(maxHistory - 1)
        }
        return RetryState(
            attempts: (previous?.attempts ?? 0) + 1, firstFailure: previous?.firstFailure ?? now, due: due,
            history: history)
    }

    /// The headers of a retry copy: the message's own headers, without an older state, plus this one.
    package func headers(replacingIn headers: [KafkaHeader]) -> [KafkaHeader] {
        let parked = parkedAt.map { [KafkaHeader(Self.parkedHeader, Self.text($0))] } ?? []
        return headers.filter { $0.name != Self.parkedHeader }.replacing(
            with: parked + [
                KafkaHeader(Self.attemptsHeader, String(attempts)),
                KafkaHeader(Self.firstFailureHeader, Self.text(firstFailure)),
                KafkaHeader(Self.dueHeader, Self.text(due)),
                KafkaHeader(
                    Self.historyHeader, history.map { "\(Self.text($0.at)) \($0.reason)" }.joined(separator: "\n")),
            ])
    }

    /// The copy of `message` to produce to `topic`.
    package func record(for message: KafkaConsumerMessage, topic: String) -> KafkaProducerRecord {
        KafkaProducerRecord(
            topic: topic, key: message.key, value: message.value, headers: headers(replacingIn: message.headers))
    }

    /// Milliseconds since the epoch, so the headers sort and parse without a date format.
    package static func text(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1_000).rounded()))
    }

    /// A time between 1970 and the year 10000, else nil.
    static func date(_ text: String) -> Date? {
        guard let milliseconds = Int64(text), (0...253_402_300_800_000).contains(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }
}
