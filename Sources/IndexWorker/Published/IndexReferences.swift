import ObjectStorage

/// What a published index says a prune must keep: the thumbnail files its works show (their
/// WebPs too), and the works still waiting for theirs (pending, or failed for now).
package struct IndexReferences: Sendable {
    package var thumbnailPaths: [String]
    package var unsettledObjectNumbers: [String]

    /// From one publish's files (``PublishedIndex/snapshot(from:passes:)``), read while an index
    /// worker may be publishing.
    package static func read(from output: any OutputStore) throws -> IndexReferences {
        let works = try PublishedIndex.snapshot(from: output).index.artists.flatMap(\.works)
        return IndexReferences(
            thumbnailPaths: works.flatMap { Array($0.thumbnails.values) + Array(($0.webpThumbnails ?? [:]).values) },
            unsettledObjectNumbers: works.filter { ["pending", "failed"].contains($0.thumbnailStatus) }.map(
                \.objectNumber))
    }
}
