/// A fetched response.
public struct HTTPFetchResponse: Sendable {
    public let status: Int
    public let headers: [(String, String)]
    public let body: [UInt8]
    /// Bytes the body holds in the budget the request was given; the caller gives them back
    /// (``HTTPFetcher/release(_:)``) once it is done with the body.
    public var reservedBytes = 0

    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}
