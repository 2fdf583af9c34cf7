import ArgumentParser
import ArtpipeSupport
import FetchWorker
import Foundation
import HTTPFetching
import Logging

/// Flags for reaching the collections (the museum, Flickr, iTunes), shared by `crawl` and `fetch-worker`.
struct SourceOptions: ParsableArguments {
    @Option(
        help: """
            Base URL standing in for the museum's hosts (legacy API, Search API and Linked Art ids), for tests and the \
            sample server. For a repository on a private network, use --private-host.
            """)
    var baseURL: String?

    @Option(
        help: ArgumentHelp(
            """
            A host the oai-pmh source may reach at a private or loopback address: an in-house repository \
            (--query endpoint=http://HOST/…). Repeatable; give crawl and fetch-worker the same \
            (env: ARTPIPE_PRIVATE_HOSTS, comma-separated).
            """, valueName: "host"))
    var privateHost: [String] = []

    @Option(help: "Read the API key from this file (default: the RIJKSMUSEUM_API_KEY environment variable).")
    var apiKeyFile: String?

    @Option(help: "Read the Flickr API key from this file (default: the FLICKR_API_KEY environment variable).")
    var flickrKeyFile: String?

    @Option(help: "Calls per minute to the iTunes Search API (Apple asks for about 20).")
    var itunesCallsPerMinute: Double = ITunesSearchSource.callsPerMinute

    @Option(help: "Longest edge, in pixels, to ask image hosts for (a little above the largest thumbnail).")
    var imageSize: Int = 512

    @Option(help: "Requests per second per host (default: no limit).")
    var requestsPerSecond: Double?

    @Option(help: "Requests in flight per host.")
    var httpConcurrency: Int = 4

    @Option(help: "Seconds a whole HTTP request may take.")
    var httpTimeout: Double = 60

    @Option(help: "Largest response accepted, in MiB.")
    var maxResponseMib: Int = 20

    @Option(help: "Language of titles and maker names, where the source has several (OAI-PMH).")
    var language: String = "en"

    @Option(
        help:
            "The most records an OAI-PMH harvest slice holds (crawl cuts a larger harvest by datestamp; a refused resumption token lists its slice again).",
        transform: { text in
            guard let records = Int(text), records >= 1 else {
                throw ValidationError("--oai-slice-records must be a whole number of at least 1, not '\(text)'")
            }
            return records
        })
    var oaiSliceRecords: Int = OAICollectionSource.defaultSliceRecords

    @Option(
        help:
            "How the museum can reach whoever runs this harvest (mailto:… or a URL), sent in the User-Agent (env: ARTPIPE_CONTACT)."
    )
    var contact: String?

    @Option(
        help: ArgumentHelp(
            "The longest Retry-After a request waits out in place; after a longer one the page waits on a retry topic, and nothing is sent to that host until the time is up.",
            valueName: "duration"))
    var maxWaitInPlace: String = "30s"

    @Option(
        help: ArgumentHelp(
            "Multiply every Retry-After the servers send by this: for tests, which cannot wait an hour.",
            visibility: .hidden))
    var retryAfterScale: Double = 1

    init() {}

    func validate() throws {
        if imageSize < 16 { throw ValidationError("--image-size must be at least 16") }
        if let requestsPerSecond, requestsPerSecond <= 0 {
            throw ValidationError("--requests-per-second must be positive")
        }
        if httpConcurrency < 1 { throw ValidationError("--http-concurrency must be at least 1") }
        if httpTimeout <= 0 { throw ValidationError("--http-timeout must be positive") }
        guard Duration(text: maxWaitInPlace) != nil else {
            throw ValidationError("--max-wait-in-place: '\(maxWaitInPlace)' is not a duration (write 30s, 2m or 1h)")
        }
        guard retryAfterScale > 0, retryAfterScale <= 1 else {
            throw ValidationError("--retry-after-scale must be above 0 and at most 1, got \(retryAfterScale)")
        }
        if itunesCallsPerMinute <= 0 { throw ValidationError("--itunes-calls-per-minute must be positive") }
        if maxResponseMib < 1 { throw ValidationError("--max-response-mib must be at least 1") }
        guard language.count >= 2, language.allSatisfy({ $0.isLetter || $0 == "-" }) else {
            throw ValidationError("--language must be a language code such as en or nl, got '\(language)'")
        }
        if let baseURL, URL(string: baseURL)?.host == nil {
            throw ValidationError("--base-url '\(baseURL)' is not a URL")
        }
    }

    /// The API key, from the file or the environment; empty when neither gives one.
    func apiKey(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        try Self.key(
            file: apiKeyFile, flag: "--api-key-file", variable: "RIJKSMUSEUM_API_KEY", environment: environment)
    }

    /// Flickr's API key, from the file or the environment; empty when neither gives one.
    func flickrKey(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        try Self.key(
            file: flickrKeyFile, flag: "--flickr-key-file", variable: "FLICKR_API_KEY", environment: environment)
    }

    private static func key(file: String?, flag: String, variable: String, environment: [String: String]) throws
        -> String
    {
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigurationError("\(flag): cannot read \(file)")
            }
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// `--private-host`'s hosts, else `ARTPIPE_PRIVATE_HOSTS`'s.
    func privateHosts(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String] {
        try HostPolicy.privateHosts(flags: privateHost, environment: environment)
    }

    /// Where iTunes' Search API lives: its documented rate applies there.
    static let itunesHost = "itunes.apple.com"
    static let flickrHost = "api.flickr.com"

    var fetcherConfiguration: HTTPFetcherConfiguration {
        var configuration = HTTPFetcherConfiguration()
        configuration.requestsPerSecond = requestsPerSecond
        configuration.requestsPerSecondByHost = [
            Self.itunesHost: itunesCallsPerMinute / 60, Self.flickrHost: FlickrSearchSource.requestsPerSecond,
        ]
        configuration.concurrencyPerHost = httpConcurrency
        configuration.requestTimeout = .seconds(fromFlag: httpTimeout)
        configuration.maxResponseBytes = maxResponseMib << 20
        configuration.userAgent = userAgent()
        configuration.retryAfterScale = retryAfterScale
        configuration.maxWaitInPlace = Duration(text: maxWaitInPlace) ?? configuration.maxWaitInPlace
        return configuration
    }

    /// `artpipe/<version>`, with the operator's contact when given: the museum asks harvesters to say who they are.
    func userAgent(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        ArtpipeVersion.userAgent(contact: contact, environment: environment)
    }

    /// The sources this process serves, with their fetcher. A `Retry-After` longer than
    /// `maxRetryAfter` (FetchWorker's `--retry-for`) fails its page for good.
    func makeSources(logger: Logger, maxRetryAfter: Duration = .seconds(86_400)) throws -> (
        sources: [any CollectionSource], fetchers: [HTTPFetcher], redaction: SecretRedaction
    ) {
        let key = try apiKey()
        let flickrKey = try flickrKey()
        // Read before any fetcher exists: a fetcher must be shut down once made.
        let ownNetworkHosts = try privateHosts()
        let redaction = SecretRedaction(secrets: [key, flickrKey].filter { !$0.isEmpty })
        var configuration = fetcherConfiguration
        configuration.maxRetryAfter = maxRetryAfter
        let http = HTTPFetcher(
            configuration: configuration, redaction: redaction, logger: logger,
            policy: .sources(baseURL: baseURL.flatMap(URL.init(string:))))
        let legacyBase = URL(string: baseURL ?? "https://www.rijksmuseum.nl")!
        let legacy = LegacyCollectionSource(baseURL: legacyBase, apiKey: key, imageEdge: imageSize, http: http)
        let standIn = baseURL.flatMap(URL.init(string:))
        let search = SearchCollectionSource(
            searchBase: standIn ?? URL(string: "https://data.rijksmuseum.nl")!,
            dataBase: standIn ?? URL(string: "https://data.rijksmuseum.nl")!, imageEdge: imageSize,
            http: http)
        let oai = OAICollectionSource(
            endpoint: standIn.map { $0.appendingPathComponent("oai") } ?? URL(
                string: "https://data.rijksmuseum.nl/oai")!,
            language: language, imageEdge: imageSize, sliceRecords: oaiSliceRecords, http: http, logger: logger)
        // Any repository's host is the crawl's to name: any host, at a public address (or one --private-host names).
        let repositories = HTTPFetcher(
            configuration: configuration, redaction: redaction, logger: logger,
            policy: .anyPublicHost(trusting: standIn, privateHosts: ownNetworkHosts))
        let anyRepository = OAICollectionSource(
            repository: .any, language: language, imageEdge: imageSize, sliceRecords: oaiSliceRecords,
            http: repositories, logger: logger)
        let flickr = FlickrSearchSource(
            endpoint: standIn.map { $0.appendingPathComponent("services/rest/") } ?? URL(
                string: "https://\(Self.flickrHost)/services/rest/")!,
            apiKey: flickrKey, imageEdge: imageSize, http: http)
        let itunes = ITunesSearchSource(
            endpoint: standIn.map { $0.appendingPathComponent("search") } ?? URL(
                string: "https://\(Self.itunesHost)/search")!,
            imageEdge: imageSize, http: http)
        return ([oai, anyRepository, legacy, search, flickr, itunes], [http, repositories], redaction)
    }
}
