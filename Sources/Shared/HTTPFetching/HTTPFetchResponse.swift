/// A fetched response.
package struct HTTPFetchResponse: Sendable {
    package let status: Int
    let headers: [(String, String)]
    package let body: [UInt8]
    /// Bytes the body holds in the budget the request was given; the caller gives them back
    /// (``HTTPFetcher/release(_:)``) once it is done with the body.
    package var reservedBytes = 0

    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}
