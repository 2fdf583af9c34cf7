/// Limits and politeness of ``HTTPFetcher``.
public struct HTTPFetcherConfiguration: Sendable {
    public var connectTimeout: Duration = .seconds(5)
    /// The longest wait for the next bytes of a response.
    public var readTimeout: Duration = .seconds(20)
    /// The longest a whole request may take, body included.
    public var requestTimeout: Duration = .seconds(60)
    /// Bodies larger than this are refused (checked against Content-Length, then while streaming).
    public var maxResponseBytes: Int = 20 << 20
    /// Attempts per request for 429, 5xx and connection errors, the first included.
    public var maxAttempts: Int = 5
    public var initialBackoff: Duration = .milliseconds(500)
    public var maxBackoff: Duration = .seconds(30)
    /// A `Retry-After` longer than this is not waited for: the attempt fails instead.
    public var maxRetryAfter: Duration = .seconds(120)
    /// Requests started per second per host; nil for no limit.
    public var requestsPerSecond: Double?
    /// Requests in flight per host.
    public var concurrencyPerHost: Int = 4
    public var userAgent = "artpipe/1"
    /// Redirects followed per request; each hop passes the URL check again.
    public var maxRedirects = 3

    public init() {}
}
