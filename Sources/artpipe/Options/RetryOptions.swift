import ArgumentParser
import ArtpipeRuntime
import ArtpipeSupport
import PipelineContract

/// How long a worker with retry topics (FetchWorker, ThumbWorker) keeps trying a page that
/// fails for the moment.
struct RetryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Waits before each retry, one per retry topic (the worker's input topic with .retry-1, -2, -3): the first failure waits the first, the second the second, every later one the last.",
            valueName: "durations"))
    var retryDelays: String = "1m,10m,1h"

    @Option(
        help: ArgumentHelp(
            "How long a page keeps being retried after its first failure before it goes to the dead letters with its history.",
            valueName: "duration"))
    var retryFor: String = "1d"

    init() {}

    func validate() throws {
        _ = try delays()
        _ = try giveUpAfter()
    }

    /// The delays, checked: one per retry topic, each positive.
    func delays() throws -> [Duration] {
        let parts = retryDelays.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let topics = ArtpipeTopic.pageRequestRetries.count
        guard parts.count == topics else {
            throw ValidationError(
                "--retry-delays takes \(topics) durations, one per retry topic (such as 1m,10m,1h), got '\(retryDelays)'"
            )
        }
        return try parts.map { part in
            guard let delay = Duration(text: part), delay > .zero else {
                throw ValidationError(
                    "--retry-delays: '\(part)' is not a positive duration (write 500ms, 30s, 10m, 2h or 1d)")
            }
            return delay
        }
    }

    func giveUpAfter() throws -> Duration {
        guard let duration = Duration(text: retryFor) else {
            throw ValidationError("--retry-for: '\(retryFor)' is not a duration (write 30s, 10m, 2h or 1d)")
        }
        return duration
    }
}
