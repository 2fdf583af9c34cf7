import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Collects a response body into one array on the event loop, for `download-bench`.
///
/// Unchecked: AsyncHTTPClient calls a delegate on its task's event loop only, one call at a time.
final class BodyCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = [UInt8]
    private var bytes: [UInt8] = []

    func didReceiveHead(task: HTTPClient.Task<[UInt8]>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        bytes.reserveCapacity(head.headers.first(name: "Content-Length").flatMap(Int.init) ?? 0)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<[UInt8]>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        bytes.append(contentsOf: buffer.readableBytesView)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<[UInt8]>) throws -> [UInt8] { bytes }
}
