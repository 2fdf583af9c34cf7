import ArtpipeSupport

/// Why a fetch failed, with every URL and body already stripped of secrets.
package enum HTTPFetchError: ClassifiedError {
    /// A 4xx the fetcher does not retry in place (all but 408, 409, 425 and 429); whether it
    /// lasts, ``HTTPStatusClass`` says.
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

    package var failureClass: FailureClass {
        switch self {
        case .rejected(let status, _, _): HTTPStatusClass.of(status)
        case .exhausted: .forNow
        case .throttled(_, let retryAfter, _): .forNow(retryAfter: retryAfter)
        case .tooLarge, .invalidURL, .refused, .tooManyRedirects, .waitTooLong: .forGood
        }
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
