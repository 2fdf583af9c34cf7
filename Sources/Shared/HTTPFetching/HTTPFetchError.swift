import ArtpipeSupport

/// An error a URL check throws when it cannot decide now (a name look-up that failed for the
/// moment): the fetcher retries it like a connection error instead of refusing the URL.
package protocol TransientFailure: Error {}

/// Why a fetch failed, with every URL and body already stripped of secrets.
package enum HTTPFetchError: Error, CustomStringConvertible {
    /// A 4xx other than 408 and 429: asking again cannot help.
    case rejected(status: Int, url: String, bodyPrefix: String)
    /// 429, 5xx or connection failures on every attempt.
    case exhausted(attempts: Int, url: String, lastFailure: String)
    /// The body is larger than the limit.
    case tooLarge(limit: Int, url: String)
    case invalidURL(String)
    /// The URL check refused a URL (a host not allowed, a private address).
    case refused(url: String, reason: String)
    case tooManyRedirects(limit: Int, url: String)
    /// The host asked us to wait (429 or 503 with `Retry-After`) longer than a request waits
    /// in place: try again after `retryAfter`.
    case throttled(url: String, retryAfter: Duration, reason: String)
    /// The host asked us to wait longer than anything here waits for (`--retry-for`).
    case waitTooLong(url: String, retryAfter: Duration, limit: Duration)

    /// True when retrying later cannot succeed.
    package var isPermanent: Bool {
        switch self {
        case .rejected, .tooLarge, .invalidURL, .refused, .tooManyRedirects, .waitTooLong: true
        case .exhausted, .throttled: false
        }
    }

    /// How long the server asked us to wait, when it did.
    package var retryAfter: Duration? {
        if case .throttled(_, let retryAfter, _) = self { return retryAfter }
        return nil
    }

    package var description: String {
        switch self {
        case .rejected(let status, let url, let bodyPrefix):
            "HTTP \(status) from \(url)" + (bodyPrefix.isEmpty ? "" : ": \(bodyPrefix)")
        case .exhausted(let attempts, let url, let lastFailure):
            "gave up on \(url) after \(attempts) attempts: \(lastFailure)"
        case .tooLarge(let limit, let url):
            "response from \(url) is larger than \(limit) bytes"
        case .invalidURL(let url):
            "invalid URL \(url)"
        case .refused(let url, let reason):
            "refused \(url): \(reason)"
        case .tooManyRedirects(let limit, let url):
            "more than \(limit) redirects from \(url)"
        case .throttled(let url, let retryAfter, let reason):
            "\(url): \(reason); the host asks to wait \(retryAfter.wholeUnitsDescription)"
        case .waitTooLong(let url, let retryAfter, let limit):
            "\(url) asks to wait \(retryAfter >= RetryAfter.longest ? "a year or more" : retryAfter.wholeUnitsDescription), "
                + "longer than the \(limit.wholeUnitsDescription) a page is retried for (--retry-for)"
        }
    }
}
