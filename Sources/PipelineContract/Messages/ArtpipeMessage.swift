/// A message of the pipeline contract: JSON with `"v": 1`, keyed by page id.
public protocol ArtpipeMessage: Codable, Sendable {
    /// The schema name in the `artpipe-schema` header (`page-request`, `page`, `page-thumbnails`).
    static var schemaName: String { get }
    /// The version this code writes and reads.
    static var schemaVersion: Int { get }
    var v: Int { get }
    var pageId: String { get }
}

extension ArtpipeMessage {
    public static var schemaVersion: Int { 1 }
    public static var schemaHeaderValue: String { "\(schemaName)/\(schemaVersion)" }
}
