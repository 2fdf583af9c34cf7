import ArtpipeCommandLine
import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import KafkaClient
import Testing

/// Every command that talks to Kafka asks the brokers first, within `--connect-timeout`: brokers
/// that do not answer are one line and exit code 2, before anything is planned or done.
@Suite("The brokers are checked within --connect-timeout, before any work", .timeLimit(.minutes(2)))
struct BrokerCheckTests {
    @Test("brokers that do not answer are a configuration error naming them, within the timeout")
    func unreachable() async throws {
        let options = try KafkaOptions.parse(["--brokers", "127.0.0.1:1", "--connect-timeout", "1"])
        let started = ContinuousClock.now
        let error = try #require(
            await #expect(throws: ConfigurationError.self) {
                try await options.reachableClientConfiguration(logger: .test)
            })
        #expect(error.description.contains("cannot reach Kafka brokers at 127.0.0.1:1 within 1.0s"), "\(error)")
        // Bounded by the timeout, not by librdkafka's own waits; the margin is for a machine
        // running the whole suite, whose blocking threads the check shares.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("a topic the command needs and the brokers lack is named; brokers that answer pass")
    func missingTopic() async throws {
        let broker = try EmbeddedBroker(logger: .test)
        try broker.createTopic("present", partitions: 1)
        let options = try KafkaOptions.parse(["--brokers", broker.bootstrapServers, "--connect-timeout", "5"])
        let client = try await options.reachableClientConfiguration(topics: ["present"], logger: .test)
        #expect(client.brokers == broker.bootstrapServers)
        let error = try #require(
            await #expect(throws: ConfigurationError.self) {
                try await options.checkBrokers(client, topics: ["present", "no-such-topic"], logger: .test)
            })
        #expect(error.description.contains("topic no-such-topic does not exist on \(broker.bootstrapServers)"))
        #expect(!error.description.contains("present,"), "\(error)")
    }

    @Test("--connect-timeout must be above 0 and at most a day", arguments: ["0", "-1", "nan", "1e10"])
    func badConnectTimeout(value: String) {
        #expect(throws: (any Error).self) {
            try KafkaOptions.parse(["--brokers", "b:9092", "--connect-timeout", value])
        }
    }

    /// `{out}` stands for a fresh folder.
    @Test(
        "every command that talks to Kafka stops with one line and exit 2 when the brokers do not answer",
        arguments: [
            // The --base-url answers nothing: a crawl that planned first would fail on it instead.
            ["crawl", "--source", "rijksmuseum-oai", "--base-url", "http://127.0.0.1:9"],
            ["crawl", "--source", "rijksmuseum-oai", "--base-url", "http://127.0.0.1:9", "--since", "last"],
            [
                "crawl", "--source", "oai-pmh", "--query", "endpoint=http://127.0.0.1:9/oai", "--reconcile",
                "--private-host", "127.0.0.1",
            ],
            ["status"],
            ["replay", "--group", "artpipe-fetch", "--to-earliest"],
            ["topics", "create"],
            ["fetch-worker"],
            ["thumb-worker", "--out", "{out}"],
            ["index-worker", "--out", "{out}"],
        ])
    func everyCommand(arguments: [String]) async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("broker-check"))
        defer { try? FileManager.default.removeItem(at: out) }
        let started = ContinuousClock.now
        let command = try ChildProcess(
            "artpipe",
            arguments.map { $0 == "{out}" ? out.path : $0 } + ["--brokers", "127.0.0.1:1", "--connect-timeout", "2"])
        defer { command.stop() }
        let status = try await command.waitForExit(timeout: .seconds(60))
        #expect(status == 2, "stderr: \(command.stderr)")
        #expect(command.stderr.split(separator: "\n").count == 1, "stderr: \(command.stderr)")
        #expect(command.stderr.contains("cannot reach Kafka brokers at 127.0.0.1:1 within 2.0s"), "\(command.stderr)")
        #expect(!command.stdout.contains("published"), "\(command.stdout)")
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
