import FetchWorker
import PipelineContract
import Testing

/// A fetch worker serves every source a request names; the key a source lacks is said once, when
/// its first request comes, never to a worker that only gets other sources' pages.
@Suite("The missing-key warning")
struct MissingKeyWarningsTests {
    struct NamedSource: CollectionSource {
        let name: String
        var missingConfiguration: String? = nil
        func fetch(_ request: PageRequest) async throws -> SourcePage { SourcePage(total: 0, artworks: []) }
        func count(query: [String: String]) async throws -> SourceCount { SourceCount(total: 0) }
    }

    /// The sources a fetch worker builds, none lacking its own configuration.
    static let served: [any CollectionSource] = [
        OAICollectionSource.sourceName, OAIRepository.any.sourceName, LegacyCollectionSource.sourceName,
        SearchCollectionSource.sourceName, FlickrSearchSource.sourceName, ITunesSearchSource.sourceName,
    ].map { NamedSource(name: $0) }

    @Test("without RIJKSMUSEUM_API_KEY, OAI-PMH, Search API, Flickr and iTunes requests are served without a warning")
    func otherSourcesSayNothing() {
        let warnings = MissingKeyWarnings(sources: Self.served, apiKey: "")
        for source in [
            OAICollectionSource.sourceName, OAIRepository.any.sourceName, SearchCollectionSource.sourceName,
            FlickrSearchSource.sourceName, ITunesSearchSource.sourceName,
        ] {
            #expect(warnings.warning(serving: source) == nil, "\(source)")
        }
    }

    @Test("the legacy API's first request without a key warns, once; with a key nothing is said")
    func legacyWithoutKey() throws {
        let warnings = MissingKeyWarnings(sources: Self.served, apiKey: "")
        let said = try #require(warnings.warning(serving: LegacyCollectionSource.sourceName))
        #expect(said.contains("RIJKSMUSEUM_API_KEY") && said.contains("--api-key-file"), "\(said)")
        #expect(warnings.warning(serving: LegacyCollectionSource.sourceName) == nil, "said once")
        let keyed = MissingKeyWarnings(sources: Self.served, apiKey: "a-key")
        #expect(keyed.warning(serving: LegacyCollectionSource.sourceName) == nil)
    }

    @Test("a worker without the legacy source never warns about its key; another source's lack is said once")
    func ownMissingConfiguration() {
        let lacking = NamedSource(name: FlickrSearchSource.sourceName, missingConfiguration: "needs FLICKR_API_KEY")
        let warnings = MissingKeyWarnings(
            sources: [NamedSource(name: OAIRepository.any.sourceName), lacking], apiKey: "")
        #expect(warnings.warning(serving: LegacyCollectionSource.sourceName) == nil)
        #expect(warnings.warning(serving: OAIRepository.any.sourceName) == nil)
        #expect(warnings.warning(serving: FlickrSearchSource.sourceName) == "needs FLICKR_API_KEY")
        #expect(warnings.warning(serving: FlickrSearchSource.sourceName) == nil)
    }
}
