/// A record of a fetched page that could not be read; the rest of the page went on.
package struct UnreadableRecord: Codable, Sendable, Equatable {
    /// The source's id of the record, when even that was readable.
    package var recordId: String
    package var reason: String

    package init(recordId: String, reason: String) {
        self.recordId = recordId
        self.reason = reason
    }
}
