/// A message of the pipeline contract: JSON with `"v": 1`, keyed by ``key``.
package protocol ArtpipeMessage: Codable, Sendable {
    /// The schema name in the `artpipe-schema` header (`page-request`, `page`, `page-thumbnails`, `harvest-mark`).
    static var schemaName: String { get }
    /// The version this code writes and reads.
    static var schemaVersion: Int { get }
    var v: Int { get }
    /// The Kafka key: the page id for page messages, so every message of a page lands on one partition.
    var key: String { get }
    /// Why a number in the message is outside what the contract allows; nil when all are in range.
    /// Every number a worker computes with is checked here, so a message can neither crash nor
    /// exhaust one (a page number that overflows a product, or sizes an array).
    var outOfRange: String? { get }
}

extension ArtpipeMessage {
    package var outOfRange: String? { nil }
    package static var schemaVersion: Int { 1 }
    static var schemaHeaderValue: String { "\(schemaName)/\(schemaVersion)" }
}

/// A message about one page, keyed by its page id.
package protocol PageMessage: ArtpipeMessage {
    var pageId: String { get }
}

extension PageMessage {
    package var key: String { pageId }
}
