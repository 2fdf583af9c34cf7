import Synchronization

/// What a fetch worker says about the keys it lacks, once per source, when it first serves a
/// request of a source that needs one. A worker serves every source (``PageFetchHandler`` picks
/// the source a request names), so a warning at start would be noise to one that only ever gets
/// OAI-PMH, Search API or iTunes pages: it is said when a request of that source arrives.
package final class MissingKeyWarnings: Sendable {
    /// Source name → what it lacks.
    private let missing: [String: String]
    private let said = Mutex<Set<String>>([])

    /// The legacy API (`rijksmuseum`) without `apiKey`, and every source whose own
    /// ``CollectionSource/missingConfiguration`` says what it lacks (Flickr without its key).
    package init(sources: [any CollectionSource], apiKey: String) {
        var missing: [String: String] = [:]
        for source in sources {
            if let lacking = source.missingConfiguration { missing[source.name] = lacking }
        }
        if apiKey.isEmpty, sources.contains(where: { $0.name == LegacyCollectionSource.sourceName }) {
            missing[LegacyCollectionSource.sourceName] =
                "no API key (RIJKSMUSEUM_API_KEY or --api-key-file): the legacy API will refuse requests"
        }
        self.missing = missing
    }

    /// The warning to log as a request of `source` is served: nil when the source lacks nothing,
    /// or was warned about already.
    package func warning(serving source: String) -> String? {
        guard let lacking = missing[source] else { return nil }
        return said.withLock { $0.insert(source).inserted } ? lacking : nil
    }
}
