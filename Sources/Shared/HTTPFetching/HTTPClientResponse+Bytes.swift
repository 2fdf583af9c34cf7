import AsyncHTTPClient
import NIOCore

extension HTTPClientResponse {
    /// The body, read straight into one array sized by its `Content-Length`: an image of 10 to
    /// 20 MiB is copied once, not grown in a buffer and then copied out of it.
    ///
    /// Throws `NIOTooManyBytesError` past `limit`: before reading when the announced length is
    /// over it, and as soon as a body without one passes it.
    func bytes(upTo limit: Int, announced: Int?) async throws -> [UInt8] {
        if let announced, announced > limit { throw NIOTooManyBytesError(maxBytes: limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(announced ?? 0, limit))
        for try await chunk in body {
            guard chunk.readableBytes <= limit - bytes.count else { throw NIOTooManyBytesError(maxBytes: limit) }
            bytes.append(contentsOf: chunk.readableBytesView)
        }
        return bytes
    }
}
