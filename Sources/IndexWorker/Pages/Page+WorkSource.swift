import PipelineContract

extension Page {
    /// The source part of its works' keys (``WorkKey``): the source, and for a repository the
    /// crawl names (`oai-pmh`'s `endpoint`) the endpoint too, so records of two repositories
    /// that use the same identifiers are two works, not versions of one.
    var workSource: String {
        query["endpoint"].map { "\(source) \($0)" } ?? source
    }
}
