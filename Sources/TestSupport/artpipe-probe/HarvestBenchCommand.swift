import ArgumentParser
import ArtpipeRuntime
import ArtpipeSupport
import FetchWorker
import Foundation
import HTTPFetching
import HTTPTestKit
import KafkaClient
import Logging
import PipelineContract
import SampleCollection

/// `artpipe-probe harvest-bench`: records per second of an OAI-PMH harvest through
/// FetchWorker's handler (HTTP, XML parse, EDM, encode; no Kafka) against the sample server.
struct HarvestBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "harvest-bench", abstract: "Measure an OAI-PMH harvest's record rate against the sample server.")

    @Option(help: "Works in the sample collection (listings of 100 a page, before repeats).")
    var works: Int = 20_000

    @Option(help: "Records per slice the harvest is cut into when planned (as crawl's --oai-slice-records).")
    var sliceRecords: Int = OAICollectionSource.defaultSliceRecords

    @Option(help: "Refuse the Nth resumption token the harvest sends, as a server whose list changed; 0 for none.")
    var refuseToken: Int = 0

    func validate() throws {
        guard works >= 100 else { throw ValidationError("--works must be at least 100") }
        guard sliceRecords >= 1 else { throw ValidationError("--slice-records must be at least 1") }
        guard refuseToken >= 0 else { throw ValidationError("--refuse-token must be 0 or more") }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .error)
        var logger = Logger(label: "artpipe.bench")
        logger.logLevel = .error
        var configuration = SampleCollection.Configuration()
        configuration.pages = works / 100
        var faults = SampleServerFaults()
        if refuseToken > 0 { faults.oaiRefusedTokenRequests = [refuseToken] }
        let sample = try await SampleServerHandle.start(configuration, faults: faults)
        let http = HTTPFetcher(
            configuration: HTTPFetcherConfiguration(), redaction: SecretRedaction(secrets: []), logger: logger)
        let source = OAICollectionSource(
            endpoint: URL(string: sample.baseURL + "/oai")!, language: "en", imageEdge: 512,
            sliceRecords: sliceRecords, http: http, logger: logger)
        let handler = PageFetchHandler(sources: [source], redaction: SecretRedaction(secrets: []), chains: nil)
        print("harvest-bench: \(sample.collection.works.count) records, 200 a page, sample server on 127.0.0.1")
        let planStart = ContinuousClock.now
        // What `crawl` does for a cursor-paged source: count, then the first request's cursor.
        let count = try await source.count(query: [:])
        let planRequests = sample.server.requestsServed
        let slices = count.cuts.count + 1
        print(
            "plan: \(planRequests) requests (the count, Identify and the halvings) in "
                + "\(String(format: "%.2f", planStart.duration(to: .now).seconds)) s: \(slices) slices of at most \(sliceRecords) records"
        )
        let start = ContinuousClock.now
        var request: PageRequest? = PageRequest(
            crawlId: "bench", source: source.name, query: [:], page: 1, pageSize: 200,
            cursor: source.firstCursor(count: count, lastPage: nil))
        var (pages, records, bytes) = (0, 0, 0)
        while let current = request {
            let outputs = try await handler.outputs(for: current, logger: logger)
            let page = try JSONDecoder().decode(Page.self, from: Data(outputs[0].value))
            pages += 1
            records += page.artworks.count + (page.deletions?.count ?? 0)
            bytes += outputs[0].value.count
            request = try outputs.first { $0.topic == ArtpipeTopic.pageRequests }.map {
                try JSONDecoder().decode(PageRequest.self, from: Data($0.value))
            }
        }
        let seconds = start.duration(to: .now).seconds
        let works = sample.collection.works.count
        let pagesClean = (works + 199) / 200
        print(
            "harvest: \(pages) pages, \(sample.server.requestsServed - planRequests) requests; a clean harvest is "
                + "\(pagesClean) pages and \(pagesClean + slices - 1) at most with \(slices) slices"
                + (refuseToken > 0
                    ? "; refusing token \(refuseToken) cost \(records - works) records listed again"
                    : ""))
        print(
            "\(records) records in \(pages) pages, \(String(format: "%.2f", seconds)) s: "
                + "\(Int(Double(records) / seconds)) records/s, \(String(format: "%.1f", Double(pages) / seconds)) pages/s, "
                + "\(bytes / max(pages, 1)) bytes per Page message")
        try await http.shutdown()
        await sample.stop()
    }
}
