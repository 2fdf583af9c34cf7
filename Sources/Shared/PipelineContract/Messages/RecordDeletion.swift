/// A record a versioned source deleted: the index removes its work unless a newer version exists.
public struct RecordDeletion: Codable, Sendable, Equatable {
    /// The source's stable id of the record.
    public var recordId: String
    /// When the deletion happened (UTC, `YYYY-MM-DDThh:mm:ssZ`).
    public var datestamp: String

    public init(recordId: String, datestamp: String) {
        self.recordId = recordId
        self.datestamp = datestamp
    }
}
