import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import KafkaTestKit
import Logging
import Synchronization

/// `artpipe-probe consume`: a worker with the probe handler.
struct ConsumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consume", abstract: "Consume topics with the worker runtime and record each handled message.")

    @OptionGroup var worker: WorkerOptions

    @Option(help: "Topic to consume; repeatable.")
    var topic: [String] = []

    @Option(help: "Consumer group.")
    var group: String = "artpipe-probe"

    @Option(help: "Append 'begin/done TOPIC PARTITION OFFSET KEY' lines to this file.")
    var record: String?

    @Option(help: "Milliseconds each message takes to handle.")
    var handleDelayMs: Int = 0

    @Option(help: "Failures before a 'flaky…' message succeeds.")
    var transientFailures: Int = 0

    @Option(help: "Produce each handled message again to this topic.")
    var outputTopic: String?

    @Option(help: "Shut down gracefully after this many handled messages, printing the rate.")
    var exitAfter: Int?

    @Flag(help: "Handle messages with a handler that only counts them (the runtime's own cost).")
    var noop = false

    func validate() throws {
        guard !topic.isEmpty else { throw ValidationError("--topic is required") }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: worker.level)
        let metrics = WorkerLauncher.bootstrapMetrics()
        let logger = Logger(label: "artpipe.probe")
        var output: LineOutput?
        if let record {
            let descriptor = open(record, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            guard descriptor >= 0 else { throw ConfigurationError("--record: cannot open \(record)") }
            output = LineOutput(fileDescriptor: descriptor)
        }
        var onHandled: (@Sendable (Int) -> Void)?
        if let exitAfter {
            let first = Mutex<ContinuousClock.Instant?>(nil)
            onHandled = { count in
                guard count == 1 || count == exitAfter else { return }
                let now = ContinuousClock.now
                let start = first.withLock { first in
                    if first == nil { first = now }
                    return first!
                }
                guard count == exitAfter else { return }
                let seconds = start.duration(to: now).seconds
                let rate = seconds > 0 ? Double(count - 1) / seconds : 0
                LineOutput.standardOutput.write(
                    "handled \(count) messages; first to last \(String(format: "%.3f", seconds)) s; \(Int(rate)) msg/s\n"
                )
                kill(getpid(), SIGTERM)
            }
        }
        if noop {
            try await WorkerLauncher.run(
                .init(
                    name: "probe", groupID: group, topics: topic,
                    handler: CountingHandler(onHandled: onHandled ?? { _ in })),
                settings: try worker.launchSettings(threadPool: .singleton), metricsFactory: metrics, logger: logger)
            return
        }
        let handler = ProbeHandler(
            record: output, handleDelay: .milliseconds(handleDelayMs), transientFailures: transientFailures,
            outputTopic: outputTopic, onHandled: onHandled)
        try await WorkerLauncher.run(
            .init(name: "probe", groupID: group, topics: topic, handler: handler),
            settings: try worker.launchSettings(threadPool: .singleton), metricsFactory: metrics, logger: logger)
    }
}
