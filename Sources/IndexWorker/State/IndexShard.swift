/// What one input partition contributed to the index, and the last offset applied to it.
struct IndexShard: Codable, Sendable {
    var topic: String
    var partition: Int32
    /// The offset of the last message applied; reading resumes after it.
    var offset: Int64?
    var inputs = IndexInputs()

    var fileName: String { "\(topic)-\(partition).json" }
}
