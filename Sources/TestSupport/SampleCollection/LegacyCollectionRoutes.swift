import Foundation
import Hummingbird
import NIOCore

/// The museum's legacy collection API: `GET /api/{culture}/collection?p=&ps=&s=artist`.
///
/// Answers shuffle the works of one artist within a page on every request, as the real API's
/// artist sort does.
struct LegacyCollectionRoutes {
    let state: SampleServerState

    var routes: RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        routes.get("/api/:culture/collection") { request, _ in try collectionPage(request) }
        return routes
    }

    private func collectionPage(_ request: Request) throws -> Response {
        let served = state.requestCount.wrappingAdd(1, ordering: .relaxed).oldValue
        let faults = state.faults
        let query = FormQuery.dictionary(request.uri.query)
        guard let page = Int(query["p"] ?? "1"), let size = Int(query["ps"] ?? "10"), page >= 1,
            (1...100).contains(size)
        else {
            return SampleResponse.text(.badRequest, "p must be at least 1 and ps 1–100")
        }
        guard page * size <= 10_000 else {
            return SampleResponse.text(.badRequest, "p × ps must not exceed 10,000")
        }
        if let status = faults.rejectedPages[page] {
            return SampleResponse.text(.init(code: status), "page \(page) is configured to answer \(status)")
        }
        if faults.failingPages.contains(page) {
            return SampleResponse.text(.internalServerError, "page \(page) is configured to fail")
        }
        let attempt = state.attempt("collection?p=\(page)&ps=\(size)")
        if attempt <= faults.failFirst {
            return attempt % 2 == 1
                ? SampleResponse.text(.serviceUnavailable, "try again")
                : Response(
                    status: .tooManyRequests, headers: [.retryAfter: "1", .contentType: "text/plain"],
                    body: .init(byteBuffer: ByteBuffer(string: "slow down")))
        }
        let listing = listing(page: page, size: size, shuffleSeed: UInt64(served))
        let base = "http://\(request.head.authority ?? "127.0.0.1")"
        let body = LegacyAnswer(
            count: state.collection.count, artObjects: listing.map { LegacyAnswer.Object($0, imageBase: base) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
    }

    /// The page as the API would list it for `ps = size`, with each artist's works shuffled.
    func listing(page: Int, size: Int, shuffleSeed: UInt64) -> [SampleWork] {
        let collection = state.collection
        var listing: [SampleWork]
        if size == collection.configuration.pageSize {
            listing = page <= collection.pages.count ? collection.pages[page - 1] : []
        } else {
            // Another page size: the same order, cut differently.
            let all = collection.pages.flatMap { $0 }
            listing = Array(all.dropFirst((page - 1) * size).prefix(size))
        }
        var random = SampleRandom(seed: shuffleSeed &* 0x2545_F491_4F6C_DD1D)
        var start = 0
        while start < listing.count {
            var end = start + 1
            while end < listing.count, listing[end].maker == listing[start].maker { end += 1 }
            if end - start > 1 {
                for index in stride(from: end - 1, to: start, by: -1) {
                    listing.swapAt(index, random.int(in: start...index))
                }
            }
            start = end
        }
        return listing
    }
}
