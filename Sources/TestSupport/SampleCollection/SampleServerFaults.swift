/// Faults the sample server injects, for tests and for watching the pipeline cope.
package struct SampleServerFaults: Sendable, Equatable {
    /// Added before every answer (API and images).
    package var latency: Duration = .zero
    /// Each collection page answers this many times with an error before it answers: 503 and
    /// 429 (with `Retry-After: 1`) in turn.
    package var failFirst: Int = 0
    /// Collection pages that always answer 500.
    package var failingPages: Set<Int> = []
    /// Images that answer 503 this many times before they answer.
    package var imageFailFirst: Int = 0
    /// How long an OAI-PMH resumption token stays good; an older one gets `badResumptionToken`.
    package var oaiTokenLifetime: Duration = .seconds(600)
    /// OAI-PMH requests with a resumption token (1-based, in arrival order) answered
    /// `badResumptionToken`, as a server does when the list changed under the token.
    package var oaiRefusedTokenRequests: Set<Int> = []
    /// OAI-PMH lists without `completeListSize`, as some servers write them.
    package var oaiListSizeHidden = false

    /// After this many API requests (images are another host and go on), the API is down
    /// until ``SampleCollectionServer/setOutage(_:)`` ends it.
    package var outageAfterAPIRequests: Int?
    /// API requests (1-based, in arrival order) answered `429` with `Retry-After: rateLimitRetryAfter` seconds.
    package var rateLimitedAPIRequests: Set<Int> = []
    package var rateLimitRetryAfter = 600
    /// Collection pages (legacy API) answered with this status, such as 410 or 401, every time.
    package var rejectedPages: [Int: Int] = [:]

    package init() {}
}

/// How the API answers while it is down.
package enum SampleAPIOutage: Sendable, Equatable {
    /// `503` with an HTML error page.
    case unavailable
    /// `200` with an HTML maintenance page, as some front ends answer.
    case maintenancePage
}
