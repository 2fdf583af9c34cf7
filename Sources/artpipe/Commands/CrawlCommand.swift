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

/// `artpipe crawl`: publishes the page requests of a query.
struct CrawlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl",
        abstract: "Publish the page requests of a collection query to artpipe.page-requests.",
        discussion: """
            The same query always gets the same page ids, so crawling it again makes no extra work downstream.
            The legacy API serves at most 10,000 objects per query: with --pages all, a larger query fails before
            anything is published, and the message says how to split it.
            """)

    @OptionGroup var kafka: KafkaOptions
    @OptionGroup var sourceOptions: SourceOptions

    @Option(
        help: """
            The collection source: rijksmuseum-oai (OAI-PMH, the whole collection, no key; --query set=, from=, until=), \
            rijksmuseum-search (the Search API, no key) or rijksmuseum (the retired legacy REST API).
            """)
    var source: String = OAICollectionSource.sourceName

    @Option(help: "A query parameter as name=value, repeatable (q=, involvedMaker=, type=, s=artist, imgonly=true…).")
    var query: [String] = []

    @Option(help: "Pages to crawl: all, N, or FIRST-LAST.")
    var pages: String = "all"

    @Option(help: "Objects per page (1–100).")
    var pageSize: Int = 100

    @Option(help: "The crawl id carried by its pages (default: derived from the source and query).")
    var crawlId: String?

    func validate() throws {
        guard CrawlPages(argument: pages) != nil else {
            throw ValidationError("--pages must be all, N or FIRST-LAST, got '\(pages)'")
        }
        guard (1...LegacyCollectionSource.maxPageSize).contains(pageSize) else {
            throw ValidationError("--page-size must be 1–\(LegacyCollectionSource.maxPageSize)")
        }
        for parameter in query where !parameter.contains("=") || parameter.hasPrefix("=") {
            throw ValidationError("--query expects name=value, got '\(parameter)'")
        }
        if ["key", "p", "ps"].contains(where: { name in query.contains { $0.hasPrefix("\(name)=") } }) {
            throw ValidationError("--query must not set key, p or ps: the crawl sets them")
        }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let logger = Logger(label: "artpipe.crawl")
        let parameters = Dictionary(
            query.map { parameter in
                let separator = parameter.firstIndex(of: "=")!
                return (String(parameter[..<separator]), String(parameter[parameter.index(after: separator)...]))
            }, uniquingKeysWith: { _, last in last })
        let client = try kafka.clientConfiguration()
        let (sources, http, redaction) = try sourceOptions.makeSources(logger: logger)
        defer { Task { try? await http.shutdown() } }
        guard let collection = sources.first(where: { $0.name == source }) else {
            throw ConfigurationError(
                "--source '\(source)' is not one of: \(sources.map(\.name).joined(separator: ", "))")
        }
        let plan: CrawlPlanner.Plan
        do {
            plan = try await CrawlPlanner.plan(
                source: collection, query: parameters, pages: CrawlPages(argument: pages)!, pageSize: pageSize,
                crawlId: crawlId ?? CrawlPlanner.defaultCrawlId(source: source, query: parameters))
        } catch let error as CrawlPlanningError {
            throw ConfigurationError(error.description)
        } catch let error as SourceFormatError {
            throw ConfigurationError("--query: \(error.description)")
        } catch let error as HTTPFetchError {
            throw ConfigurationError("cannot plan the crawl: \(redaction.apply(error.description))")
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
                + "\(plan.total) objects match; crawl \(plan.requests.first?.crawlId ?? "-"))")
    }
}
