import Foundation

/// What one HTTP answer means for a fetch: the decisions `HTTPFetcher.get` takes on a status
/// and its headers, as a pure function, so each can be tested without a server.
enum HTTPResponseVerdict: Equatable {
    /// 2xx: the response is the result.
    case done
    /// 3xx with a usable `Location`: ask `URL` next (absolute, resolved against the request's).
    case redirect(URL)
    /// Worth another try in place (408, 409, 425, 429, 5xx): `retryAfter` is the server's `Retry-After`, scaled;
    /// `holdsHost` when the whole host asked for the pause (429 or 503 with `Retry-After`).
    case retry(failure: String, retryAfter: Duration?, holdsHost: Bool)
    /// Not asked again here (another 4xx, or a redirect without a usable `Location`); whether
    /// it lasts is ``HTTPStatusClass``'s call.
    case reject(status: Int, reason: String?)

    /// - Parameter header: the response's header of that name, if any.
    init(status: Int, requestURL: URL, retryAfterScale: Double = 1, header: (String) -> String?) {
        switch status {
        case 200..<300:
            self = .done
        case 301, 302, 303, 307, 308:
            guard let location = header("Location"), let next = URL(string: location, relativeTo: requestURL) else {
                self = .reject(status: status, reason: "redirect without Location")
                return
            }
            self = .redirect(next.absoluteURL)
        case 408, 409, 425, 429, 500..<600:
            let retryAfter = header("Retry-After").flatMap { RetryAfter.parse($0) }.map { $0 * retryAfterScale }
            self = .retry(
                failure: "HTTP \(status)", retryAfter: retryAfter,
                holdsHost: retryAfter != nil && (status == 429 || status == 503))
        default:
            self = .reject(status: status, reason: nil)
        }
    }
}
