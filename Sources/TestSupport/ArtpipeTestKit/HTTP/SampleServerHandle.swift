import Logging
import SampleCollection

/// A sample collection server running in the test process, on an ephemeral loopback port.
package final class SampleServerHandle: Sendable {
    package let server: SampleCollectionServer
    let port: Int
    private let task: Task<Void, any Error>

    private init(server: SampleCollectionServer, port: Int, task: Task<Void, any Error>) {
        self.server = server
        self.port = port
        self.task = task
    }

    package var baseURL: String { "http://127.0.0.1:\(port)" }
    package var collection: SampleCollection { server.collection }

    package static func start(_ configuration: SampleCollection.Configuration, faults: SampleServerFaults = .init())
        async throws -> SampleServerHandle
    {
        let server = SampleCollectionServer(
            collection: SampleCollection(configuration), faults: faults, threadPool: .singleton)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test.sample-server")
        logger.logLevel = .critical
        let task = Task { [logger] in
            try await server.run(port: 0, logger: logger) { continuation.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw DeadlineExceeded(description: "the sample server did not start")
        }
        return SampleServerHandle(server: server, port: port, task: task)
    }

    package func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
