import PipelineContract

/// The staged index computed in one pass, without Kafka: each input through the pages stage,
/// the rows it writes through the works stage, their lines into the artist shards, then every
/// file. What copies publish at rest, for inputs given in any order: the reference the process
/// tests and benchmarks compare with.
package enum StagedIndexBuild {
    package enum Input: Sendable {
        case page(Page)
        case thumbnails(PageThumbnails)
        case failed(PageRequest, reason: String)

        /// The input as the pages stage takes it.
        package var indexInput: IndexInput {
            switch self {
            case .page(let page): .page(page)
            case .thumbnails(let thumbnails): .thumbnails(thumbnails)
            case .failed(let request, let reason): .failedRequest(request, reason: reason)
            }
        }
    }

    /// Every published file, for topics of `partitions` partitions (with `site`, as copies given
    /// that `--site-url` publish them).
    package static func files(_ inputs: [Input], partitions: Int, site: SiteAddress? = nil) throws -> [String: [UInt8]]
    {
        let shards = IndexShards(count: partitions)
        // Which page partition a page is in changes no file: the summaries merge in any grouping.
        var pages = PagePartition(partition: 0)
        var works = WorkPartition(shards: shards)
        var shardWorks = (0..<partitions).map { ShardWorks(shard: $0) }
        for input in inputs {
            let writes = try pages.apply(input.indexInput)
            for row in writes.works {
                let out = works.apply(row.work, key: row.key, row: row.row)
                for line in out.artists { try shardWorks[line.shard].apply(line.work, line.row) }
            }
        }
        return try files(of: shardWorks, pages: [pages.summary], partitions: partitions, site: site)
    }

    /// Every published file of `shards` (one per shard, in order) and the page partitions'
    /// `pages` summaries (any grouping of the pages; the partitions not named hold none).
    package static func files(
        of shards: [ShardWorks], pages: [PagesSummary], partitions: Int, site: SiteAddress? = nil
    ) throws -> [String: [UInt8]] {
        let layout = IndexShards(count: partitions)
        var files: [String: [UInt8]] = [:]
        var summaries: [ShardSummary] = []
        for state in shards {
            let index = try state.index
            files.merge(IndexLayout.bucketFiles(of: index, shards: layout, site: site)) { first, _ in first }
            summaries.append(ShardSummary(shard: state.shard, index: index))
        }
        let pageSummaries =
            pages + (pages.count..<max(partitions, pages.count)).map { PagesSummary(partition: $0, outlines: []) }
        let shared = IndexAssembly.sharedFiles(shards: summaries, pages: pageSummaries, layout: layout, site: site)
        files.merge(shared) { first, _ in first }
        return files
    }
}
