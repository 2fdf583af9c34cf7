/// Faults the sample server injects, for tests and for watching the pipeline cope.
public struct SampleServerFaults: Sendable, Equatable {
    /// Added before every answer (API and images).
    public var latency: Duration = .zero
    /// Each collection page answers this many times with an error before it answers: 503 and
    /// 429 (with `Retry-After: 1`) in turn.
    public var failFirst: Int = 0
    /// Collection pages that always answer 500.
    public var failingPages: Set<Int> = []
    /// Images that answer 503 this many times before they answer.
    public var imageFailFirst: Int = 0
    /// How long an OAI-PMH resumption token stays good; an older one gets `badResumptionToken`.
    public var oaiTokenLifetime: Duration = .seconds(600)
    /// OAI-PMH requests with a resumption token (1-based, in arrival order) answered
    /// `badResumptionToken`, as a server does when the list changed under the token.
    public var oaiRefusedTokenRequests: Set<Int> = []
    /// OAI-PMH lists without `completeListSize`, as some servers write them.
    public var oaiListSizeHidden = false

    /// After this many API requests (images are another host and go on), the API is down
    /// until ``SampleCollectionServer/setOutage(_:)`` ends it.
    public var outageAfterAPIRequests: Int?
    /// API requests (1-based, in arrival order) answered `429` with `Retry-After: rateLimitRetryAfter` seconds.
    public var rateLimitedAPIRequests: Set<Int> = []
    public var rateLimitRetryAfter = 600
    /// Collection pages (legacy API) answered with this status, such as 410 or 401, every time.
    public var rejectedPages: [Int: Int] = [:]

    public init() {}
}

/// How the API answers while it is down.
public enum SampleAPIOutage: Sendable, Equatable {
    /// `503` with an HTML error page.
    case unavailable
    /// `200` with an HTML maintenance page, as some front ends answer.
    case maintenancePage
}
