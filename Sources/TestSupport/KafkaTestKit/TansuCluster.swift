import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import KafkaClient
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// A Tansu broker of its own (memory storage) with a producer, for tests: a Kafka-protocol
/// broker written apart from librdkafka, whose fetches answer as its own code does (batches with
/// holes among them), where the embedded broker answers as librdkafka's mock.
///
/// Its binary is `ARTPIPE_TEST_TANSU`, which `make test` sets (scripts/prepare-tansu.sh fetches
/// it). librdkafka 2.0.2 cannot talk to Tansu (its version request fails), so the tests that use
/// it run with a newer librdkafka loaded in its place (`LD_LIBRARY_PATH`), which the workers
/// they start inherit.
package final class TansuCluster: Sendable {
    /// Tansu's binary, when this test run has one.
    package static var binary: String? { ProcessInfo.processInfo.environment["ARTPIPE_TEST_TANSU"] }

    let process: ChildProcess
    package let brokers: String
    package let producer: KafkaProducer

    /// Starts the broker on a free port of 127.0.0.1 and waits until it takes requests.
    package init() async throws {
        guard let binary = Self.binary else { throw TansuUnavailable() }
        let port = try Self.freePort()
        brokers = "127.0.0.1:\(port)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("tansu"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process = try ChildProcess(
            executableURL: URL(fileURLWithPath: binary),
            arguments: [
                "broker", "--listener-url", "tcp://\(brokers)", "--advertised-listener-url", "tcp://\(brokers)",
                "--storage-engine", "memory://tansu/",
            ], outputURL: folder.appendingPathComponent("output"))
        let process = self.process
        try await waitUntil("Tansu to take requests: \(process.outputTail(lines: 5))", timeout: .seconds(30)) {
            guard process.isRunning else { throw TansuUnavailable(output: process.outputTail(lines: 10)) }
            return process.output.contains("ready in")
        }
        producer = try KafkaProducer(configuration: KafkaClientConfiguration(brokers: brokers), logger: .test)
    }

    /// Stops the producer and the broker.
    package func shutdown() async {
        await producer.shutdown()
        process.stop()
    }

    /// A TCP port of 127.0.0.1 no socket is bound to now.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TansuUnavailable(output: "socket: errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw TansuUnavailable(output: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
