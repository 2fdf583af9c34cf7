import ArtpipeCommandLine
import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import KafkaClient
import PipelineContract
import Testing

@Suite("Bad configuration gives one line and exit code 2", .timeLimit(.minutes(2)))
struct CommandLineErrorTests {
    /// `{broker}` stands for a live embedded broker's address.
    @Test(
        "bad flags and unreachable brokers",
        arguments: [
            (["consume", "--topic", "t"], "--brokers"),
            (
                ["consume", "--brokers", "{broker}", "--topic", "t", "--kafka", "no.such.property=1"],
                "no.such.property"
            ),
            (["consume", "--brokers", "{broker}", "--topic", "t", "--kafka", "novalue"], "key=value"),
            (
                ["consume", "--brokers", "{broker}", "--topic", "t", "--kafka", "session.timeout.ms=abc"],
                "session.timeout.ms"
            ),
            (
                ["consume", "--brokers", "127.0.0.1:1", "--topic", "t", "--connect-timeout", "2"],
                "cannot reach Kafka brokers at 127.0.0.1:1"
            ),
            (["consume", "--brokers", "{broker}", "--topic", "no-such-topic"], "no-such-topic does not exist"),
            (["consume", "--brokers", "{broker}", "--topic", "t", "--concurrency", "0"], "--concurrency"),
            (["consume", "--brokers", "{broker}", "--topic", "t", "--no-such-flag"], "--no-such-flag"),
        ])
    func badConfiguration(arguments: [String], expected: String) async throws {
        let broker = try EmbeddedBroker(logger: .test)
        try broker.createTopic("t", partitions: 1)
        try broker.createTopic(ArtpipeTopic.deadLetters, partitions: 1)
        let probe = try ChildProcess(
            "artpipe-probe", arguments.map { $0 == "{broker}" ? broker.bootstrapServers : $0 })
        defer { probe.stop() }
        let status = try await probe.waitForExit(timeout: .seconds(30))
        #expect(status == 2)
        let lines = probe.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(probe.stderr)")
        #expect(probe.stderr.contains(expected), "stderr: \(probe.stderr)")
    }

    @Test("ARTPIPE_BROKERS and ARTPIPE_KAFKA_<KEY> are read when the flags are absent")
    func environmentFallbacks() throws {
        let options = try KafkaOptions.parse(["--kafka", "client.id=from-flag"])
        let configuration = try options.clientConfiguration(environment: [
            "ARTPIPE_BROKERS": "broker-a:9092",
            "ARTPIPE_KAFKA_CLIENT_ID": "from-env",
            "ARTPIPE_KAFKA_SOCKET_TIMEOUT_MS": "5000",
        ])
        #expect(configuration.brokers == "broker-a:9092")
        #expect(configuration.properties["client.id"] == "from-flag")
        #expect(configuration.properties["socket.timeout.ms"] == "5000")
    }

    @Test("artpipe topics create on a broker that lacks the admin API says so in one line")
    func topicsCreateOnEmbeddedBroker() async throws {
        let broker = try EmbeddedBroker(logger: .test)
        let command = try ChildProcess(
            "artpipe", ["topics", "create", "--brokers", broker.bootstrapServers, "--connect-timeout", "3"])
        defer { command.stop() }
        let status = try await command.waitForExit(timeout: .seconds(30))
        #expect(status == 2)
        #expect(command.stderr.split(separator: "\n").count == 1, "stderr: \(command.stderr)")
        #expect(command.stderr.contains("topics create on \(broker.bootstrapServers)"))
    }

    @Test(
        "crawl refuses what Flickr and iTunes cannot serve before asking them",
        arguments: [
            (["--source", "flickr", "--query", "text=cat"], "FLICKR_API_KEY"),
            (["--source", "itunes", "--query", "term=jazz", "--page-size", "300"], "at most 200"),
            (["--source", "itunes", "--query", "term=jazz", "--query", "offset=5"], "offset"),
            (["--source", "flickr", "--flickr-key-file", "/no/such/key"], "--flickr-key-file"),
        ])
    func crawlSourceRefusals(arguments: [String], expected: String) async throws {
        let broker = try EmbeddedBroker(logger: .test)
        // A port nothing listens on: any request sent would fail differently.
        let command = try ChildProcess(
            "artpipe",
            ["crawl", "--brokers", broker.bootstrapServers, "--base-url", "http://127.0.0.1:9"] + arguments)
        defer { command.stop() }
        let status = try await command.waitForExit(timeout: .seconds(30))
        #expect(status == 2)
        #expect(command.stderr.split(separator: "\n").count == 1, "stderr: \(command.stderr)")
        #expect(command.stderr.contains(expected), "stderr: \(command.stderr)")
    }
}
