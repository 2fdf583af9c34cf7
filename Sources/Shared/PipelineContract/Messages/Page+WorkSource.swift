extension Page {
    /// What a work's record id is unique within: the source, and for a repository the crawl
    /// names (`oai-pmh`'s `endpoint`) the endpoint too, so records of two repositories that use
    /// the same identifiers are two works, not versions of one (the index's work keys).
    package var workSource: String {
        query["endpoint"].map { "\(source) \($0)" } ?? source
    }
}
