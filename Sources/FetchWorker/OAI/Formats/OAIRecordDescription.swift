/// What a record's metadata says of its work, whatever the format: read by
/// ``EDMRecordReader``, ``LIDORecordReader`` or ``DublinCoreRecordReader``.
struct OAIRecordDescription: Sendable, Equatable {
    /// The museum's number for the work (inventory number), or the record's own id when it has none.
    var objectNumber: String
    var title: String
    /// The maker's name as the provider writes it; empty when the record names none.
    var creator: String
    /// The image to thumbnail; nil when the record names none (the work is listed without one).
    var imageURL: String?
    var rights: String?
}

/// A record whose metadata cannot be read: why (a required field missing, a format artpipe
/// does not read). The record goes to the dead letters; its page goes on.
struct OAIRecordUnreadable: Error, Sendable, Equatable {
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
