import Foundation
import Hummingbird
import NIOCore

/// The iTunes Search API over the distinct works: `term` required, `limit` up to 200, `offset`
/// honoured; blank lines around the JSON, as Apple's servers send it.
struct ITunesRoutes {
    let state: SampleServerState

    var routes: RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        routes.get("/search") { request, _ in try search(request) }
        return routes
    }

    private func search(_ request: Request) throws -> Response {
        state.requestCount.wrappingAdd(1, ordering: .relaxed)
        let query = FormQuery.dictionary(request.uri.query)
        guard let term = query["term"], !term.isEmpty else {
            var parameters: [String: String] = [:]
            for (name, value) in query { parameters[String(name)] = String(value) }
            return try SampleResponse.json(ITunesAnswer.missingTerm(parameters), status: .badRequest)
        }
        let limit = min(max(Int(query["limit"] ?? "50") ?? 50, 1), 200)
        let offset = max(Int(query["offset"] ?? "0") ?? 0, 0)
        let body = try JSONSerialization.data(
            withJSONObject: ITunesAnswer.results(
                state.collection.works.dropFirst(offset).prefix(limit),
                imageBase: "http://\(request.head.authority ?? "127.0.0.1")"),
            options: [.sortedKeys, .withoutEscapingSlashes])
        var framed = ByteBuffer(string: ITunesAnswer.framing)
        framed.writeBytes(body)
        framed.writeString(ITunesAnswer.framing)
        return Response(
            status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"], body: .init(byteBuffer: framed))
    }
}
