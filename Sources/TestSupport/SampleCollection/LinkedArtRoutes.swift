import Hummingbird

/// The Search API and Linked Art, for the rijksmuseum-search source (`--base-url` stands in
/// for data.rijksmuseum.nl and id.rijksmuseum.nl alike).
struct LinkedArtRoutes {
    let state: SampleServerState
    let documents: LinkedArtDocuments

    var routes: RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        routes.get("/search/collection") { request, _ in
            let unknown = Set(request.uri.queryParameters.map { String($0.key) })
                .subtracting(LinkedArtDocuments.searchParameters)
            guard unknown.isEmpty else {
                return SampleResponse.text(.badRequest, "unknown parameter \(unknown.sorted().joined(separator: ", "))")
            }
            let page = Int(request.uri.queryParameters.get("pageToken") ?? "1") ?? 0
            guard page >= 1 else { return SampleResponse.text(.badRequest, "bad pageToken") }
            return try linkedArt(documents.searchPage(page))
        }
        routes.get("/sample/:kind/:number") { request, context in
            let number = Int(try context.parameters.require("number")) ?? -1
            let base = "http://\(request.head.authority ?? "127.0.0.1")"
            // The data host's default profile is not Linked Art: it must be asked for.
            let linkedArt =
                request.headers[.init("Accept-Profile")!]?.contains("linked.art") == true
                || request.uri.queryParameters.get("_profile") == "la"
            let document: [String: Any]? =
                switch try context.parameters.require("kind") {
                case "object" where !linkedArt: documents.schemaOrgObject(number)
                case "object": documents.object(number)
                case "agent": documents.agent(number)
                case "visual": documents.visualItem(number)
                case "digital": documents.digitalObject(number, imageBase: base)
                default: nil
                }
            guard let document else { return SampleResponse.text(.notFound, "no such id") }
            return try self.linkedArt(document)
        }
        return routes
    }

    private func linkedArt(_ document: [String: Any]) throws -> Response {
        state.requestCount.wrappingAdd(1, ordering: .relaxed)
        return try SampleResponse.json(
            document, contentType: "application/ld+json; charset=utf-8", headers: [.cacheControl: "max-age=3600"])
    }
}
