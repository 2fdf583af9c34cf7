import ArtpipeTestKit
import Logging
import NIOPosix
import SampleCollection

/// A sample collection server running in the test process, on an ephemeral loopback port.
package final class SampleServerHandle: Sendable {
    package let server: SampleCollectionServer
    let port: Int
    private let task: Task<Void, any Error>
    private let pool: NIOThreadPool

    private init(server: SampleCollectionServer, port: Int, task: Task<Void, any Error>, pool: NIOThreadPool) {
        self.server = server
        self.port = port
        self.task = task
        self.pool = pool
    }

    package var baseURL: String { "http://127.0.0.1:\(port)" }
    package var collection: SampleCollection { server.collection }

    package static func start(_ configuration: SampleCollection.Configuration, faults: SampleServerFaults = .init())
        async throws -> SampleServerHandle
    {
        // Its images are made on threads of its own: on the process's shared pool they waited
        // behind other suites' blocking calls until the thumb workers' requests timed out.
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        let server = SampleCollectionServer(
            collection: SampleCollection(configuration), faults: faults, threadPool: pool)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test.sample-server")
        logger.logLevel = .critical
        let task = Task { [logger] in
            try await server.run(port: 0, logger: logger) { continuation.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            try? await pool.shutdownGracefully()
            throw DeadlineExceeded(description: "the sample server did not start")
        }
        return SampleServerHandle(server: server, port: port, task: task, pool: pool)
    }

    package func stop() async {
        task.cancel()
        _ = try? await task.value
        try? await pool.shutdownGracefully()
    }
}
