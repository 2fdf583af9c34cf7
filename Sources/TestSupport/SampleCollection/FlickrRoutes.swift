import Hummingbird

/// Flickr's REST endpoint, `flickr.photos.search` only, over the legacy listings (which overlap).
///
/// `min_upload_date` and `max_upload_date` (Unix seconds) are honoured, with Flickr's
/// `stat: fail` answers: code 112 for another method, 100 for a missing key or the key
/// `invalid`, and 105 (status 200) for the first ``SampleServerFaults/failFirst`` attempts at
/// each page.
struct FlickrRoutes {
    /// Results one search reaches, as on Flickr.
    static let reach = 4_000

    let state: SampleServerState

    var routes: RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        // The router matches it with or without the trailing slash.
        routes.get("/services/rest") { request, _ in try page(request) }
        return routes
    }

    private func page(_ request: Request) throws -> Response {
        state.requestCount.wrappingAdd(1, ordering: .relaxed)
        let query = FormQuery.dictionary(request.uri.query)
        let method = query["method"].map { String($0) } ?? ""
        guard method == "flickr.photos.search" else {
            return try SampleResponse.json(FlickrAnswer.failure(code: 112, message: "Method \"\(method)\" not found"))
        }
        guard let key = query["api_key"], !key.isEmpty, key != "invalid" else {
            return try SampleResponse.json(
                FlickrAnswer.failure(code: 100, message: "Invalid API Key (Key has invalid format)"))
        }
        // Flickr clamps what it is asked for rather than refusing it.
        let perPage = min(max(Int(query["per_page"] ?? "100") ?? 100, 1), 500)
        let page = max(Int(query["page"] ?? "1") ?? 1, 1)
        if state.attempt("flickr?page=\(page)&per_page=\(perPage)") <= state.faults.failFirst {
            return try SampleResponse.json(FlickrAnswer.failure(code: 105, message: "Service currently unavailable"))
        }
        // Uploaded in id order, a minute apart; both ends of the window inclusive, as Flickr reads them.
        let minimum = query["min_upload_date"].flatMap { Int($0) } ?? Int.min
        let maximum = query["max_upload_date"].flatMap { Int($0) } ?? Int.max
        let matching = state.collection.pages.joined().filter {
            (minimum...maximum).contains(FlickrAnswer.uploaded($0))
        }
        let listing =
            page * perPage <= Self.reach ? Array(matching.dropFirst((page - 1) * perPage).prefix(perPage)) : []
        let extras = Set((query["extras"] ?? "").split(separator: ",").map(String.init))
        return try SampleResponse.json(
            FlickrAnswer.page(
                listing, page: page, perPage: perPage, total: matching.count, extras: extras,
                imageBase: "http://\(request.head.authority ?? "127.0.0.1")"))
    }
}
