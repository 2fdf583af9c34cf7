import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import KafkaClient
import Logging
import PipelineContract

/// `artpipe replay`: moves a consumer group's offsets so its workers read again.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Move a consumer group's offsets back (or forward) so its workers process messages again.",
        discussion: """
            Shows the plan and changes nothing unless --execute is given. Refuses while the group has live
            members: stop that stage's workers, replay, start them again. Every stage is idempotent per page, so
            a replay rebuilds the same outputs; thumbnails already made are not downloaded again.
            """)

    @OptionGroup var kafka: KafkaOptions

    @Option(help: "The consumer group: artpipe-fetch, artpipe-thumb, artpipe-index, or another.")
    var group: String

    @Option(help: "A topic to move (repeatable; default: every topic the artpipe group reads).")
    var topic: [String] = []

    @Flag(help: "Move to the oldest message each partition holds.")
    var toEarliest = false

    @Option(help: "Move to the first message at or after this time (ISO 8601, e.g. 2026-11-22T08:00:00Z).")
    var toDatetime: String?

    @Option(help: "Move to this offset (clamped to each partition's range).")
    var toOffset: Int64?

    @Option(parsing: .unconditional, help: "Move the committed offset by this many messages (negative: back).")
    var shiftBy: Int64?

    @Flag(help: "Apply the plan. Without it, nothing changes.")
    var execute = false

    @Option(
        help:
            "Seconds to wait for the group's partitions on a broker that cannot describe groups (more than the workers' session timeout)."
    )
    var joinTimeout: Double = 60

    func validate() throws {
        let targets = [toEarliest, toDatetime != nil, toOffset != nil, shiftBy != nil].filter { $0 }.count
        guard targets == 1 else {
            throw ValidationError("give exactly one of --to-earliest, --to-datetime, --to-offset, --shift-by")
        }
        if let toDatetime, Self.parseDate(toDatetime) == nil {
            throw ValidationError("--to-datetime '\(toDatetime)' is not an ISO 8601 date-time (2026-11-22T08:00:00Z)")
        }
        if topic.isEmpty, PipelineStage(groupID: group) == nil {
            throw ValidationError(
                "--topic is needed: \(group) is not one of \(PipelineStage.groupIDs.joined(separator: ", "))")
        }
        guard joinTimeout > 0 else { throw ValidationError("--join-timeout must be positive") }
    }

    static func parseDate(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    var target: KafkaOffsetTarget {
        if let toDatetime, let date = Self.parseDate(toDatetime) { return .dateTime(date) }
        if let toOffset { return .offset(toOffset) }
        if let shiftBy { return .shift(shiftBy) }
        return .earliest
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let logger = Logger(label: "artpipe.replay")
        let client = try await kafka.reachableClientConfiguration(logger: logger)
        let offsets = KafkaGroupOffsets(configuration: client, logger: logger)
        let topics = topic.isEmpty ? PipelineStage(groupID: group)?.inputTopics ?? [] : topic
        let plan: KafkaOffsetResetPlan
        do {
            plan = try await offsets.plan(group: group, topics: topics, target: target)
        } catch let error as KafkaError {
            throw ConfigurationError(error.message)
        }
        print(plan.text)
        guard execute else {
            print("dry run: nothing changed; add --execute to apply")
            return
        }
        try await offsets.execute(
            plan, memberTopics: PipelineStage(groupID: group)?.inputTopics ?? topics,
            joinTimeout: .milliseconds(Int64(joinTimeout * 1_000)))
        let after = try await offsets.positions(group: group, topics: topics)
        let moved = zip(plan.rows, after).allSatisfy { $0.target == $1.committed }
        guard moved else {
            throw KafkaError("the group's offsets are not where the plan put them; run status to see them")
        }
        print("done: group \(group) moved on \(topics.joined(separator: ", ")); start its workers to replay")
    }
}
