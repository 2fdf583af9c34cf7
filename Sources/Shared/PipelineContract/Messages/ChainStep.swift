import KafkaClient

/// Where a page request stands in its cursor chain, carried in the header
/// `artpipe-chain-step: <partition>@<offset>/<page>`.
///
/// A chain is named by the position of its first request in `artpipe.page-requests` (the
/// request `crawl` published), which a replay or a redelivery does not change. Every later
/// request of the chain goes to that same partition, so the one worker that owns the partition
/// sees every step of the chain and publishes each step once (see FetchWorker's `CursorChains`).
package struct ChainStep: Hashable, Sendable, CustomStringConvertible {
    package static let header = "artpipe-chain-step"

    /// The partition of `artpipe.page-requests` the chain lives in.
    package var partition: Int32
    /// The offset of the chain's first request in that partition.
    var firstOffset: Int64
    /// The page this step requests.
    package var page: Int

    package init(partition: Int32, firstOffset: Int64, page: Int) {
        self.partition = partition
        self.firstOffset = firstOffset
        self.page = page
    }

    /// Reads the header's text; nil unless every number is in range.
    package init?(text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let position = parts[0].split(separator: "@", omittingEmptySubsequences: false)
        guard position.count == 2, let partition = Int32(position[0]), partition >= 0,
            let offset = Int64(position[1]), offset >= 0, let page = Int(parts[1]),
            (1...PageRequest.maxPage).contains(page)
        else { return nil }
        self.init(partition: partition, firstOffset: offset, page: page)
    }

    package var description: String { "\(partition)@\(firstOffset)/\(page)" }

    /// The step of the same chain that requests `page`.
    package func at(page: Int) -> ChainStep {
        ChainStep(partition: partition, firstOffset: firstOffset, page: page)
    }

    /// The step a message of `artpipe.page-requests` (or a retry copy of one) stands at: its
    /// header, or for a chain's first request its own position. Nil for a retry copy made
    /// before chains were named, and for a header that does not parse.
    package static func of(_ message: KafkaConsumerMessage, page: Int) -> ChainStep? {
        if let text = message.headers.value(of: header) { return ChainStep(text: text) }
        guard message.topic == ArtpipeTopic.pageRequests else { return nil }
        return ChainStep(partition: message.partition, firstOffset: message.offset, page: page)
    }
}
