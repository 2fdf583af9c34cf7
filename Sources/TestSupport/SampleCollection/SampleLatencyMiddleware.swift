import Hummingbird

/// ``SampleServerFaults/latency``, added before every answer of the routes behind it.
struct SampleLatencyMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let latency: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if latency > .zero { try await Task.sleep(for: latency) }
        return try await next(request, context)
    }
}
