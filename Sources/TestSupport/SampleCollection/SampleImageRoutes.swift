import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix
import SampleImages
import Synchronization

/// The images the collections' answers point to, under each service's own path: JPEGs made
/// with libvips, each size and tint once; some works' images are HTML or truncated on purpose.
final class SampleImageRoutes: Sendable {
    private let state: SampleServerState
    /// Makes the images (libvips blocks).
    private let pool: NIOThreadPool
    /// JPEGs by (width, height, tint).
    private let made = Mutex<[[Int]: [UInt8]]>([:])

    init(state: SampleServerState, pool: NIOThreadPool) {
        self.state = state
        self.pool = pool
    }

    var routes: RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        routes.get("/images/:file") { _, context in try await self.image(context.parameters.require("file")) }
        routes.get("/iiif/:id/full/:size/:rotation/:file") { _, context in
            try await self.image("\(try context.parameters.require("id")).jpg")
        }
        routes.get("/itunes-art/:id/:file") { _, context in
            try await self.image("\(try context.parameters.require("id")).jpg")
        }
        return routes
    }

    private func image(_ file: String) async throws -> Response {
        state.requestCount.wrappingAdd(1, ordering: .relaxed)
        state.imageRequestCount.wrappingAdd(1, ordering: .relaxed)
        guard file.hasSuffix(".jpg"), let id = Int(file.dropLast(4)), let work = state.collection.work(id: id),
            let image = work.image
        else {
            return SampleResponse.text(.notFound, "no such image")
        }
        if state.faults.imageFailFirst > 0, state.attempt(file) <= state.faults.imageFailFirst {
            return SampleResponse.text(.serviceUnavailable, "try again")
        }
        let headers: HTTPFields = [.contentType: "image/jpeg", .cacheControl: "public, max-age=86400"]
        switch image {
        case .notAnImage:
            return SampleResponse.html(.ok, "<html><body>Image temporarily unavailable</body></html>")
        case .jpeg(let width, let height):
            let bytes = try await jpeg(width: width, height: height, tint: id % 5)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        case .truncated(let width, let height):
            let bytes = try await jpeg(width: width, height: height, tint: id % 5)
            return Response(
                status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes.prefix(bytes.count / 3)))
            )
        }
    }

    private func jpeg(width: Int, height: Int, tint: Int) async throws -> [UInt8] {
        let key = [width, height, tint]
        if let bytes = made.withLock({ $0[key] }) { return bytes }
        let bytes = try await pool.runIfActive {
            try SampleImage.painting(width: width, height: height, seed: 1 + tint * 97, quality: 85)
        }
        made.withLock { $0[key] = bytes }
        return bytes
    }
}
