import ArtpipeCommandLine
import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
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

    @Test(
        "a bucket prune whose --keep-recent is not longer than --touch-after is refused before the store is asked",
        arguments: [["--keep-recent", "30m"], ["--keep-recent", "2h", "--touch-after", "2h"]])
    func pruneKeepRecent(flags: [String]) async throws {
        // Port 9 answers nothing: the refusal comes before any request.
        let prune = try ChildProcess(
            "artpipe", ["prune", "--out", "s3://bucket/site", "--s3-endpoint", "http://127.0.0.1:9"] + flags)
        defer { prune.stop() }
        #expect(try await prune.waitForExit(timeout: .seconds(30)) == 2)
        let lines = prune.stderr.split(separator: "\n")
        #expect(lines.count == 1 && prune.stderr.contains("must be longer than --touch-after"), "\(prune.stderr)")
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

        let unsafe = try ChildProcess(
            "artpipe",
            [
                "topics", "create", "--brokers", broker.bootstrapServers, "--replication", "3", "--min-insync-replicas",
                "4",
            ])
        #expect(try await unsafe.waitForExit(timeout: .seconds(30)) == 2)
        #expect(
            unsafe.stderr.contains("--min-insync-replicas must be between 1 and --replication (3), got 4"),
            "\(unsafe.stderr)")
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

@Suite("artpipe healthcheck", .timeLimit(.minutes(1)))
struct HealthcheckCommandTests {
    @Test("exit 0 for a 2xx answer, 1 for a 503 or no answer (one line saying which), 2 for a bad URL")
    func exitCodes() async throws {
        let server = try await TestHTTPServer.start { request in
            TestHTTPServer.Response(status: request.path == "/healthz" ? 200 : 503)
        }
        func run(_ arguments: [String]) async throws -> ChildProcess {
            let command = try ChildProcess("artpipe", ["healthcheck"] + arguments)
            _ = try await command.waitForExit(timeout: .seconds(30))
            return command
        }
        #expect(try await run(["--url", server.baseURL + "/healthz"]).exitStatus == 0)
        let sick = try await run(["--url", server.baseURL + "/sick"])
        #expect(sick.exitStatus == 1)
        #expect(sick.stderr.split(separator: "\n").count == 1 && sick.stderr.contains("answered 503"), "\(sick.stderr)")
        let closed = try await run(["--url", "http://127.0.0.1:1/healthz", "--timeout", "2"])
        #expect(closed.exitStatus == 1 && closed.stderr.contains("did not answer"), "\(closed.stderr)")
        let bad = try await run(["--url", "ftp://x/"])
        #expect(bad.exitStatus == 2 && bad.stderr.contains("--url"), "\(bad.stderr)")
        await server.stop()
    }
}
