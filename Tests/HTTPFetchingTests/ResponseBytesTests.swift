import AsyncHTTPClient
import NIOCore
import Testing

@testable import HTTPFetching

@Suite("Reading a response body into bytes")
struct ResponseBytesTests {
    static func response(_ chunks: [[UInt8]]) -> HTTPClientResponse {
        let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        for chunk in chunks { continuation.yield(ByteBuffer(bytes: chunk)) }
        continuation.finish()
        return HTTPClientResponse(status: .ok, body: .stream(stream))
    }

    @Test("chunks arrive in order, up to the limit exactly")
    func chunksInOrder() async throws {
        let chunks: [[UInt8]] = [[1, 2, 3], [4], [5, 6]]
        let bytes = try await Self.response(chunks).bytes(upTo: 6, announced: nil)
        #expect(bytes == [1, 2, 3, 4, 5, 6])
    }

    @Test("a body without a length stops at the chunk that passes the limit")
    func unannouncedOverLimit() async throws {
        await #expect(throws: NIOTooManyBytesError.self) {
            _ = try await Self.response([[1, 2, 3], [4, 5], [6]]).bytes(upTo: 4, announced: nil)
        }
    }

    @Test("an announced length over the limit is refused before reading")
    func announcedOverLimit() async throws {
        await #expect(throws: NIOTooManyBytesError.self) {
            _ = try await Self.response([[1]]).bytes(upTo: 4, announced: 5)
        }
    }
}
