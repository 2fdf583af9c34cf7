import ArtpipeTestKit
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import SampleCollection
import Synchronization

/// A real HTTP server on 127.0.0.1 with an ephemeral port, answering every request with a
/// closure the test provides, and remembering the requests it saw.
package final class TestHTTPServer: Sendable {
    /// A request as the server saw it.
    package struct Request: Sendable {
        package let path: String
        package let query: [String: String]
        /// By lower-case name.
        package let headers: [String: String]
    }

    /// What to answer, after an optional delay.
    package struct Response: Sendable {
        var status: Int
        package var headers: [(String, String)]
        var body: [UInt8]
        package var delay: Duration

        package init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = [], delay: Duration = .zero) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }

        package static func json(_ text: String) -> Response {
            Response(headers: [("Content-Type", "application/json")], body: Array(text.utf8))
        }
    }

    private final class RequestLog: Sendable {
        let requests = Mutex<[Request]>([])
    }

    let port: Int
    private let task: Task<Void, any Error>
    private let seen: RequestLog

    private init(port: Int, task: Task<Void, any Error>, seen: RequestLog) {
        self.port = port
        self.task = task
        self.seen = seen
    }

    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The requests so far, oldest first.
    package var requests: [Request] { seen.requests.withLock { $0 } }

    package static func start(_ respond: @escaping @Sendable (Request) async -> Response) async throws -> TestHTTPServer
    {
        let seen = RequestLog()
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            let query = FormQuery.dictionary(request.uri.query)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
            let seenRequest = Request(path: request.uri.path, query: query, headers: headers)
            seen.requests.withLock { $0.append(seenRequest) }
            let answer = await respond(seenRequest)
            if answer.delay > .zero { try? await Task.sleep(for: answer.delay) }
            var fields = HTTPFields()
            for (name, value) in answer.headers {
                if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
            }
            return Hummingbird.Response(
                status: .init(code: answer.status), headers: fields,
                body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        var logger = Logger(label: "test.http")
        // Stopping cancels the server, which it reports as errors.
        logger.logLevel = .critical
        let application = Application(
            responder: responder, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await application.runService(gracefulShutdownSignals: []) }
        var iterator = portStream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw DeadlineExceeded(description: "test HTTP server did not start")
        }
        return TestHTTPServer(port: port, task: task, seen: seen)
    }

    package func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
