/// A record of a fetched page that could not be read; the rest of the page went on.
public struct UnreadableRecord: Codable, Sendable, Equatable {
    /// The source's id of the record, when even that was readable.
    public var recordId: String
    public var reason: String

    public init(recordId: String, reason: String) {
        self.recordId = recordId
        self.reason = reason
    }
}
