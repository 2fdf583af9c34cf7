import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import Logging
import PipelineOperations

/// `artpipe status`: where every page stands, and each group's lag.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show pages requested, fetched, thumbnailed, indexed and failed, and the lag of each consumer group.",
        discussion: """
            Reads the topics from outside the consumer groups (nothing changes) and, with --out, the index.
            A failed page is one a worker dead-lettered; its reason is the dead letter's artpipe-error header.
            A retrying page failed for the moment and waits on a retry topic: shown with its attempts,
            its next attempt's time and the last reason.
            """)

    @OptionGroup var kafka: KafkaOptions

    @Option(
        help: """
            Where the index worker publishes (a directory, or s3://BUCKET[/PREFIX] with the store's address in \
            AWS_ENDPOINT_URL), to tell which pages are indexed.
            """)
    var out: String?

    @Option(help: "Accepted for scripts from 0.6, and unused: missing history is read from the index group's offsets.")
    var state: String?

    @Option(help: "Seconds to spend reading each topic.")
    var readTimeout: Double = 60

    @Option(
        help: """
            Workers to ask what they know of themselves (a partition held, a restore that failed): each one's \
            http://HOST:PORT (its --http-port), comma-separated.
            """)
    var workers: String?

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let logger = Logger(label: "artpipe.status")
        let urls = try WorkerHealthReport.urls(fromFlag: workers ?? "")
        // Asked first: what the workers say matters most when the brokers do not answer.
        let workers = await WorkerHealthReport.read(urls, timeout: .seconds(5))
        var status: PipelineStatus
        do {
            status = try await PipelineStatus.read(
                client: try await kafka.reachableClientConfiguration(logger: logger), out: out,
                timeout: .seconds(fromFlag: readTimeout), logger: logger)
        } catch {
            if !workers.isEmpty { print(PipelineStatus.workersText(workers)) }
            throw error
        }
        status.workers = workers
        print(status.text)
    }
}
