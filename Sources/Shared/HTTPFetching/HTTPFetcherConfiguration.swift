/// Limits and politeness of ``HTTPFetcher``.
package struct HTTPFetcherConfiguration: Sendable {
    package var connectTimeout: Duration = .seconds(5)
    /// The longest wait for the next bytes of a response.
    package var readTimeout: Duration = .seconds(20)
    /// The longest a whole request may take, body included.
    package var requestTimeout: Duration = .seconds(60)
    /// Bodies larger than this are refused (checked against Content-Length, then while streaming).
    package var maxResponseBytes: Int = 20 << 20
    /// Attempts per request for 429, 5xx and connection errors, the first included.
    package var maxAttempts: Int = 5
    package var initialBackoff: Duration = .milliseconds(500)
    package var maxBackoff: Duration = .seconds(30)
    /// A `Retry-After` up to this long is waited out in place; a longer one fails the request
    /// as ``HTTPFetchError/throttled(url:retryAfter:reason:)``, and every request to that host
    /// fails the same way, without being sent, until the wait is over.
    package var maxWaitInPlace: Duration = .seconds(30)
    /// The longest `Retry-After` worth waiting for (FetchWorker's `--retry-for`): a longer one
    /// fails the request for good, ``HTTPFetchError/waitTooLong(url:retryAfter:limit:)``, and
    /// holds the host no longer than this.
    package var maxRetryAfter: Duration = .seconds(86_400)
    /// Multiplies every `Retry-After` the servers send: below 1 only for tests, which cannot wait an hour.
    package var retryAfterScale: Double = 1
    /// Requests started per second per host; nil for no limit.
    package var requestsPerSecond: Double?
    /// Rates for particular hosts (an API that documents its own); with ``requestsPerSecond`` too, the slower wins.
    package var requestsPerSecondByHost: [String: Double] = [:]
    /// Requests in flight per host.
    package var concurrencyPerHost: Int = 4
    package var userAgent = "artpipe/1"
    /// Redirects followed per request; each hop passes the URL check again.
    var maxRedirects = 3

    package init() {}
}
