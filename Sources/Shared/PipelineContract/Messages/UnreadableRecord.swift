/// A record of a fetched page that could not be read; the rest of the page went on.
package struct UnreadableRecord: Codable, Sendable, Equatable {
    /// The source's id of the record, when even that was readable.
    package var recordId: String
    package var reason: String
    /// The record as the source sent it, when the source kept it: FetchWorker sends it to the
    /// dead letters. Never part of the `Page` message.
    package var bytes: [UInt8]?

    private enum CodingKeys: String, CodingKey {
        case recordId, reason
    }

    package init(recordId: String, reason: String, bytes: [UInt8]? = nil) {
        self.recordId = recordId
        self.reason = reason
        self.bytes = bytes
    }
}
