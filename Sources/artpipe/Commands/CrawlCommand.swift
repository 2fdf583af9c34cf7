import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import ArtpipeSupport
import FetchWorker
import Foundation
import HTTPFetching
import KafkaClient
import Logging
import PipelineContract
import PipelineOperations
import Synchronization

/// `artpipe crawl`: publishes the page requests of a query.
struct CrawlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl",
        abstract: "Publish the page requests of a collection query to artpipe.page-requests.",
        discussion: """
            The same query always gets the same page ids, so crawling it again makes no extra work downstream.
            The legacy API serves at most 10,000 objects per query: with --pages all, a larger query fails before
            anything is published, and the message says how to split it. Flickr serves 4,000: a larger flickr query
            is cut into upload-date ranges that fit.
            """)

    @OptionGroup var kafka: KafkaOptions
    @OptionGroup var sourceOptions: SourceOptions

    @Option(
        help: """
            The collection source: rijksmuseum-oai (OAI-PMH, the whole collection, no key; --query set=, from=, until=), \
            oai-pmh (any OAI-PMH repository in EDM, LIDO or oai_dc; --query endpoint=BASE-URL, and set=, from=, until=, \
            metadataPrefix=), rijksmuseum-search (the Search API, no key), rijksmuseum (the retired legacy REST API), flickr (photo \
            search, grouped by owner; needs FLICKR_API_KEY) or itunes (the iTunes Search API, grouped by artist).
            """)
    var source: String = OAICollectionSource.sourceName

    @Option(
        help: """
            A query parameter as name=value, repeatable. rijksmuseum-oai: set, from, until; oai-pmh: endpoint (required), \
            set, from, until, metadataPrefix (default: EDM, else LIDO, else oai_dc, as the repository offers); rijksmuseum-search: \
            creator, title, description, type, technique, material, creationDate, imageAvailable, objectNumber, \
            aboutActor, memberOfSetId; rijksmuseum: the legacy API's (involvedMaker=, type=, s=artist, imgonly=true…); \
            flickr: photos.search's (text=, tags=, user_id=, license=, min_upload_date=…); itunes: term, country, \
            media, entity, attribute, lang, explicit.
            """)
    var query: [String] = []

    @Option(help: "Pages to crawl: all, N, or FIRST-LAST.")
    var pages: String = "all"

    @Option(
        help:
            "Objects per page: rijksmuseum 1–100, flickr 1–500, itunes 1–200; the museum's other sources' servers fix it. Default: 100."
    )
    var pageSize: Int?

    @Option(help: "The crawl id carried by its pages (default: derived from the source and query).")
    var crawlId: String?

    @Option(
        help: """
            Harvest only what changed: 'last' (since the last completed harvest of the same query, read from \
            artpipe.harvests) or a UTC time YYYY-MM-DDThh:mm:ssZ. rijksmuseum-oai and oai-pmh only.
            """)
    var since: String?

    @Flag(
        help: """
            Remove the works an OAI-PMH repository no longer lists (for repositories that keep no deletions): \
            list its identifiers completely (--query endpoint=, set=), compare with the records artpipe.pages \
            holds of that scope, and publish a deletion for each one gone. A listing that does not complete removes nothing.
            """)
    var reconcile = false

    @Option(help: "Seconds to spend reading artpipe.harvests (--since last) or artpipe.pages (--reconcile).")
    var readTimeout: Double = 30

    func validate() throws {
        guard CrawlPages(argument: pages) != nil else {
            throw ValidationError("--pages must be all, N or FIRST-LAST, got '\(pages)'")
        }
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1") }
        for parameter in query where !parameter.contains("=") || parameter.hasPrefix("=") {
            throw ValidationError("--query expects name=value, got '\(parameter)'")
        }
        if ["key", "p", "ps"].contains(where: { name in query.contains { $0.hasPrefix("\(name)=") } }) {
            throw ValidationError("--query must not set key, p or ps: the crawl sets them")
        }
        if let since {
            guard Self.versioned.contains(source) else {
                throw ValidationError(
                    "--since needs --source \(Self.versioned.joined(separator: " or ")): only they have datestamps")
            }
            guard since == "last" || Self.isUTCSecond(since) else {
                throw ValidationError("--since must be 'last' or a UTC time YYYY-MM-DDThh:mm:ssZ, got '\(since)'")
            }
            guard !query.contains(where: { $0.hasPrefix("from=") }) else {
                throw ValidationError("--since sets from=; give one or the other")
            }
        }
        if reconcile {
            guard Self.versioned.contains(source) else {
                throw ValidationError("--reconcile needs --source \(Self.versioned.joined(separator: " or "))")
            }
            guard since == nil, !query.contains(where: { $0.hasPrefix("from=") || $0.hasPrefix("until=") }) else {
                throw ValidationError("--reconcile lists the whole scope: leave out --since, from= and until=")
            }
        }
        guard readTimeout > 0 else { throw ValidationError("--read-timeout must be positive") }
    }

    /// The sources with datestamps, which `--since` and `--reconcile` take.
    static let versioned = [OAICollectionSource.sourceName, OAIRepository.any.sourceName]

    /// OAI-PMH's granularity here: `YYYY-MM-DDThh:mm:ssZ`, a real moment.
    static func isUTCSecond(_ text: String) -> Bool {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return text.count == 20 && text.hasSuffix("Z") && formatter.date(from: text) != nil
    }

    /// The topics a crawl reads or writes, which must exist before it starts: the page requests it
    /// publishes (the pages, with --reconcile), and the harvest marks --since last reads.
    static func topics(reconcile: Bool, since: String?) -> [String] {
        (reconcile ? [ArtpipeTopic.pages] : [ArtpipeTopic.pageRequests])
            + (since == "last" ? [ArtpipeTopic.harvests] : [])
    }

    /// Refuses a query the source does not take, as a configuration error.
    private func checkQuery(_ parameters: [String: String], of collection: any CollectionSource) throws {
        do {
            try collection.check(query: parameters)
        } catch let error as SourceFormatError {
            throw ConfigurationError("--query: \(error.description)")
        }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let logger = Logger(label: "artpipe.crawl")
        var parameters = Dictionary(
            query.map { parameter in
                let separator = parameter.firstIndex(of: "=")!
                return (String(parameter[..<separator]), String(parameter[parameter.index(after: separator)...]))
            }, uniquingKeysWith: { _, last in last })
        // What needs neither the brokers nor the source is refused first, then the brokers are
        // asked (within --connect-timeout), and only then is anything read, planned or published.
        let client = try kafka.clientConfiguration()
        if let since, since != "last" { parameters["from"] = since }
        let (sources, fetchers, redaction) = try sourceOptions.makeSources(logger: logger)
        defer { Task { for fetcher in fetchers { try? await fetcher.shutdown() } } }
        guard let collection = sources.first(where: { $0.name == source }) else {
            throw ConfigurationError(
                "--source '\(source)' is not one of: \(sources.map(\.name).joined(separator: ", "))")
        }
        if let missing = collection.missingConfiguration { throw ConfigurationError(missing) }
        if !reconcile {
            if let fixed = collection.fixedPageSize, pageSize != nil {
                throw ConfigurationError(
                    "--page-size: \(collection.name) pages hold \(fixed) objects, as its server decides; leave it out")
            }
            if let pageSize, pageSize > collection.maxPageSize {
                throw ConfigurationError(
                    "--page-size: \(collection.name) pages hold at most \(collection.maxPageSize) objects")
            }
            try checkQuery(parameters, of: collection)
        }
        try await kafka.checkBrokers(client, topics: Self.topics(reconcile: reconcile, since: since), logger: logger)
        if since == "last" {
            if let mark = try await HarvestMark.latest(
                of: source, query: parameters, client: client, timeout: .seconds(fromFlag: readTimeout), logger: logger)
            {
                parameters["from"] = mark.harvestedThrough
                print(
                    "harvesting changes since \(mark.harvestedThrough) (the last completed harvest, crawl \(mark.crawlId))"
                )
            } else {
                print("no completed harvest of this query yet: harvesting everything")
            }
        }
        if reconcile, let repository = collection as? OAICollectionSource {
            try await reconcile(repository, query: parameters, client: client, logger: logger)
            return
        }
        // Again with the last harvest's from=.
        try checkQuery(parameters, of: collection)
        let plan: CrawlPlanner.Plan
        do {
            plan = try await CrawlPlanner.plan(
                source: collection, query: parameters, pages: CrawlPages(argument: pages)!,
                pageSize: collection.fixedPageSize ?? pageSize ?? 100,
                crawlId: crawlId ?? CrawlPlanner.defaultCrawlId(source: source, query: parameters))
        } catch let error as CrawlPlanningError {
            throw ConfigurationError(error.description)
        } catch let error as SourceFormatError {
            throw ConfigurationError("--query: \(error.description)")
        } catch HTTPFetchError.rejected(let status, _, _)
            where status == 410 && source == LegacyCollectionSource.sourceName
        {
            throw ConfigurationError(
                "the museum has retired the legacy collection API (410 Gone at the --base-url host): "
                    + "harvest with --source \(OAICollectionSource.sourceName) (the whole collection) "
                    + "or --source \(SearchCollectionSource.sourceName)")
        } catch let error as HTTPFetchError {
            throw ConfigurationError("cannot plan the crawl: \(redaction.apply(error.description))")
        } catch let error where !FailureClass.of(error).isForGood {
            throw ConfigurationError(
                "cannot plan the crawl, the source failed for the moment \(CrawlPlanner.countRetryDelays.count + 1) "
                    + "times: \(redaction.apply("\(error)"))")
        }
        let producer: KafkaProducer
        do {
            producer = try KafkaProducer(configuration: client, logger: logger)
        } catch let error as KafkaError {
            throw ConfigurationError(error.message)
        }
        try await producer.send(plan.requests.map { try MessageCodec.record($0, topic: ArtpipeTopic.pageRequests) })
        await producer.shutdown()
        let range = plan.requests.isEmpty ? "none" : "\(plan.requests.first!.page)–\(plan.requests.last!.page)"
        print(
            "published \(plan.requests.count) page requests (pages \(range) of \(plan.lastPage); "
                + "\(plan.totalIsExact ? "" : "at least ")\(plan.total) objects match; crawl \(plan.requests.first?.crawlId ?? "-"))"
        )
    }

    /// `--reconcile`: the records held, read first, then the repository's complete list, then
    /// the deletions of what it no longer lists (``OAIReconciliation``).
    private func reconcile(
        _ repository: OAICollectionSource, query: [String: String], client: KafkaClientConfiguration, logger: Logger
    ) async throws {
        let held = Mutex(OAIReconciliation(source: repository.name, query: query))
        do {
            try await KafkaTopicSnapshot.scan(
                ArtpipeTopic.pages, configuration: client, timeout: .seconds(fromFlag: readTimeout), logger: logger
            ) { message in
                guard let page = try? MessageCodec.decode(Page.self, from: message) else { return }
                held.withLock { $0.add(page) }
            }
        } catch let error as KafkaError {
            throw ConfigurationError("--reconcile: cannot read \(ArtpipeTopic.pages): \(error.message)")
        }
        let listing: OAIIdentifierListing
        do {
            listing = try await repository.listIdentifiers(query: query)
        } catch {
            throw ConfigurationError("--reconcile: the listing did not complete, nothing is removed: \(error)")
        }
        let reconciliation = held.withLock { $0 }
        let pages = reconciliation.pages(
            removing: listing,
            crawlId: crawlId ?? "\(CrawlPlanner.defaultCrawlId(source: source, query: query)):reconciled")
        if !pages.isEmpty {
            let producer: KafkaProducer
            do {
                producer = try KafkaProducer(configuration: client, logger: logger)
            } catch let error as KafkaError {
                throw ConfigurationError(error.message)
            }
            try await producer.send(pages.map { try MessageCodec.record($0, topic: ArtpipeTopic.pages) })
            await producer.shutdown()
        }
        print(
            "reconciled: \(reconciliation.held.count) records held, \(listing.present.count) listed by the repository, "
                + "\(reconciliation.gone(from: listing).count) no longer listed and removed "
                + "(deletions stamped \(listing.responseDate))")
    }
}
