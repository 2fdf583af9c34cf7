/// A record a versioned source deleted: the index removes its work unless a newer version exists.
package struct RecordDeletion: Codable, Sendable, Equatable {
    /// The source's stable id of the record.
    package var recordId: String
    /// When the deletion happened (UTC, `YYYY-MM-DDThh:mm:ssZ`).
    package var datestamp: String

    package init(recordId: String, datestamp: String) {
        self.recordId = recordId
        self.datestamp = datestamp
    }
}
