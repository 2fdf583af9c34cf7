import ArtpipeSupport

/// Whether an HTTP error status lasts. Only the answers that say the request itself is wrong or
/// the resource is gone are for good; every other 4xx can change without us (a web application
/// firewall's 403, a 401 while a key is rotated, a 409 or 425) and is for the moment, as 5xx
/// are: the page waits on the retry topics and, if it never passes, ends in the dead letters
/// with its history, instead of ending a crawl quietly on the first answer.
package enum HTTPStatusClass {
    /// 400 Bad Request, 404 Not Found, 405 Method Not Allowed, 406 Not Acceptable, 410 Gone,
    /// 411 Length Required, 413 Content Too Large, 414 URI Too Long, 415 Unsupported Media
    /// Type, 416 Range Not Satisfiable, 422 Unprocessable Content, 451 Unavailable For Legal Reasons.
    static let lasting: Set<Int> = [400, 404, 405, 406, 410, 411, 413, 414, 415, 416, 422, 451]

    package static func of(_ status: Int) -> FailureClass {
        lasting.contains(status) ? .forGood : .forNow
    }
}
