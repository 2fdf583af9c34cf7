import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// The faults of the collection APIs, as one middleware in front of every API route (images
/// are another host and go on): an outage, started by hand or after a number of requests, and
/// rate limits on chosen requests. It also records when each API request arrived.
final class SampleAPIFaultMiddleware: RouterMiddleware, Sendable {
    typealias Context = BasicRequestContext

    /// Arrival times kept, for tests: a long-running server must not grow with its requests.
    static let arrivalsKept = 10_000

    private let faults: SampleServerFaults
    /// The outage now, how many API requests came, and when (the first ``arrivalsKept``).
    private let state = Mutex<(outage: SampleAPIOutage?, count: Int, arrivals: [ContinuousClock.Instant])>((nil, 0, []))

    init(faults: SampleServerFaults) {
        self.faults = faults
    }

    /// Starts (or changes) an outage, or ends it with nil.
    func setOutage(_ outage: SampleAPIOutage?) {
        state.withLock { $0.outage = outage }
    }

    var arrivals: [ContinuousClock.Instant] { state.withLock { $0.arrivals } }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if let fault = fault() { return fault }
        return try await next(request, context)
    }

    /// The answer of a fault in force for this request, if one is.
    private func fault() -> Response? {
        let (number, outage) = state.withLock { state in
            state.count += 1
            if state.arrivals.count < Self.arrivalsKept { state.arrivals.append(.now) }
            if let after = faults.outageAfterAPIRequests, state.count == after + 1 {
                state.outage = .unavailable
            }
            return (state.count, state.outage)
        }
        switch outage {
        case .unavailable:
            return SampleResponse.html(
                .serviceUnavailable, "<html><body><h1>503 Service Unavailable</h1></body></html>")
        case .maintenancePage:
            return SampleResponse.html(.ok, "<!DOCTYPE html><html><body><h1>Down for maintenance</h1></body></html>")
        case nil:
            break
        }
        if faults.rateLimitedAPIRequests.contains(number) {
            return Response(
                status: .tooManyRequests,
                headers: [.retryAfter: String(faults.rateLimitRetryAfter), .contentType: "text/plain"],
                body: .init(byteBuffer: ByteBuffer(string: "slow down")))
        }
        return nil
    }
}
