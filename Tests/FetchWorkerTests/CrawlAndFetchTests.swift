import ArtpipeSupport
import ArtpipeTestKit
import FetchWorker
import Foundation
import HTTPFetching
import HTTPTestKit
import KafkaClient
import KafkaTestKit
import PipelineContract
import Testing

@Suite("Crawl and fetch against a local legacy API", .serialized, .timeLimit(.minutes(3)))
struct CrawlAndFetchTests {
    static let environment = ["RIJKSMUSEUM_API_KEY": LegacyCollectionServer.apiKey]

    func makeCluster() throws -> TestCluster {
        let cluster = try TestCluster()
        for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 3) }
        return cluster
    }

    func crawl(_ cluster: TestCluster, _ server: TestHTTPServer, _ extra: [String]) async throws -> ChildProcess {
        let process = try ChildProcess(
            "artpipe",
            ["crawl", "--brokers", cluster.brokers, "--base-url", server.baseURL, "--source", "rijksmuseum"] + extra,
            environment: Self.environment)
        _ = try await process.waitForExit(timeout: .seconds(60))
        return process
    }

    @Test(
        "a crawl publishes the right page requests, the same ids twice, and the fetch worker publishes the right pages")
    func crawlThenFetch() async throws {
        let cluster = try makeCluster()
        let server = try await TestHTTPServer.start { LegacyCollectionServer.answer($0, total: 250) }
        defer { Task { await server.stop() } }

        let first = try await crawl(
            cluster, server, ["--query", "s=artist", "--query", "imgonly=true", "--page-size", "100"])
        #expect(first.exitStatus == 0, "\(first.stderr)")
        #expect(first.stdout.contains("published 3 page requests"))
        let second = try await crawl(
            cluster, server, ["--query", "imgonly=true", "--query", "s=artist", "--page-size", "100"])
        #expect(second.exitStatus == 0, "\(second.stderr)")

        let published = try await readTopic(
            ArtpipeTopic.pageRequests, brokers: cluster.brokers, count: 6, timeout: .seconds(30))
        let requests = try published.map { try MessageCodec.decode(PageRequest.self, from: $0) }
        #expect(requests.count == 6)
        #expect(Set(requests.map(\.pageId)).count == 3, "the second crawl publishes the same page ids")
        #expect(Set(requests.map(\.page)) == [1, 2, 3])
        #expect(requests.allSatisfy { $0.query == ["s": "artist", "imgonly": "true"] && $0.pageSize == 100 })
        #expect(published.allSatisfy { $0.keyString == (try? MessageCodec.decode(PageRequest.self, from: $0))?.pageId })
        #expect(
            published.allSatisfy { !String(decoding: $0.value, as: UTF8.self).contains(LegacyCollectionServer.apiKey) })

        let worker = try ChildProcess(
            "artpipe",
            ["fetch-worker", "--brokers", cluster.brokers, "--base-url", server.baseURL] + EmbeddedBrokerSettings.flags,
            environment: Self.environment)
        defer { worker.stop() }
        let pageMessages = try await readTopic(
            ArtpipeTopic.pages, brokers: cluster.brokers, count: 6, timeout: .seconds(60))
        worker.signal(SIGTERM)
        #expect(try await worker.waitForExit(timeout: .seconds(40)) == 0)

        let pages = try pageMessages.map { try MessageCodec.decode(Page.self, from: $0) }
        let latest = Dictionary(pages.map { ($0.page, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(latest.keys.sorted() == [1, 2, 3])
        #expect(latest.values.allSatisfy { $0.total == 250 && $0.source == "rijksmuseum" })
        #expect(latest.keys.sorted().map { latest[$0]!.artworks.count } == [100, 100, 50])
        let artworks = latest.keys.sorted().flatMap { latest[$0]!.artworks }
        #expect(artworks.map(\.objectNumber) == (0..<250).map { "SK-\($0)" })
        #expect(artworks.filter { $0.imageURL == nil }.count == (0..<250).filter { $0 % 7 == 3 }.count)
        #expect(artworks.compactMap(\.imageURL).allSatisfy { $0.hasSuffix("=s512") })
        #expect(pageMessages.allSatisfy { $0.headers.value(of: MessageCodec.schemaHeader) == "page/1" })
        #expect(!worker.stdout.contains(LegacyCollectionServer.apiKey))
        #expect(
            server.requests.allSatisfy {
                (Int($0.query["p"] ?? "0") ?? 0) * (Int($0.query["ps"] ?? "0") ?? 0) <= 10_000
            })
        await cluster.shutdown()
    }

    @Test("the retired legacy API (410 Gone): crawl fails before publishing, naming the sources to use instead")
    func legacyRetired() async throws {
        let cluster = try makeCluster()
        let server = try await TestHTTPServer.start { _ in
            TestHTTPServer.Response(status: 410, body: Array("<html>Gone</html>".utf8))
        }
        defer { Task { await server.stop() } }
        let crawl = try await crawl(cluster, server, [])
        #expect(crawl.exitStatus == 2)
        let lines = crawl.stderr.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].contains("retired") && lines[0].contains("rijksmuseum-oai"), "\(crawl.stderr)")
        let published = try await KafkaTopicSnapshot.read(
            ArtpipeTopic.pageRequests, configuration: KafkaClientConfiguration(brokers: cluster.brokers),
            timeout: .seconds(10), logger: .test)
        #expect(published.isEmpty)
        await cluster.shutdown()
    }

    @Test(
        "a query past the API's 10,000-object reach: --pages all refuses before publishing; a range stops at the reach")
    func tenThousandCap() async throws {
        let cluster = try makeCluster()
        let server = try await TestHTTPServer.start { LegacyCollectionServer.answer($0, total: 25_000) }
        defer { Task { await server.stop() } }

        let all = try await crawl(cluster, server, ["--page-size", "100"])
        #expect(all.exitStatus == 2)
        #expect(all.stderr.contains("15000 would be unreachable"), "\(all.stderr)")
        #expect(all.stderr.contains("--query type="), "\(all.stderr)")

        let range = try await crawl(cluster, server, ["--page-size", "100", "--pages", "90-200"])
        #expect(range.exitStatus == 0, "\(range.stderr)")
        #expect(range.stdout.contains("published 11 page requests (pages 90–100 of 100"), "\(range.stdout)")
        #expect(
            server.requests.allSatisfy {
                (Int($0.query["p"] ?? "0") ?? 0) * (Int($0.query["ps"] ?? "0") ?? 0) <= 10_000
            })

        // A request past the reach, however it was made, is refused without asking the API.
        let before = server.requests.count
        let http = HTTPFetcher(
            configuration: HTTPFetcherConfiguration(), redaction: SecretRedaction(secrets: []), logger: .test)
        let source = LegacyCollectionSource(
            baseURL: URL(string: server.baseURL)!, apiKey: LegacyCollectionServer.apiKey, imageEdge: 512, http: http)
        await #expect(throws: SourceFormatError.self) {
            try await source.fetch(
                PageRequest(crawlId: "c", source: "rijksmuseum", query: [:], page: 101, pageSize: 100))
        }
        #expect(server.requests.count == before)
        try await http.shutdown()
        await cluster.shutdown()
    }

    @Test(
        "401, for the moment (a key being rotated): every attempt made, then the dead letters with the status; the key appears nowhere"
    )
    func unauthorizedDeadLetter() async throws {
        let cluster = try makeCluster()
        let secret = "s3cret-key-0042"
        let server = try await TestHTTPServer.start { request in
            TestHTTPServer.Response(
                status: 401, body: Array("{\"error\": \"key \(request.query["key"] ?? "") is invalid\"}".utf8))
        }
        defer { Task { await server.stop() } }
        let request = PageRequest(crawlId: "c", source: "rijksmuseum", query: ["q": "x"], page: 1, pageSize: 10)
        try await cluster.producer.send(MessageCodec.record(request, topic: ArtpipeTopic.pageRequests))

        let redaction = SecretRedaction(secrets: [secret])
        let http = HTTPFetcher(configuration: HTTPFetcherConfiguration(), redaction: redaction, logger: .test)
        let source = LegacyCollectionSource(
            baseURL: URL(string: server.baseURL)!, apiKey: secret, imageEdge: 512, http: http)
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("fetch"), topics: [ArtpipeTopic.pageRequests],
            handler: PageFetchHandler(sources: [source], redaction: redaction, chains: .reading(cluster)))
        let letters = try await readTopic(
            ArtpipeTopic.deadLetters, brokers: cluster.brokers, count: 1, timeout: .seconds(60))
        try await worker.stop()
        try await http.shutdown()

        let letter = try #require(letters.first)
        let reason = try #require(letter.headers.value(of: DeadLetter.errorHeader))
        #expect(reason.contains("HTTP 401"))
        #expect(reason.contains("is invalid"))
        #expect(try MessageCodec.decode(PageRequest.self, from: letter) == request)
        let everything =
            [String(decoding: letter.value, as: UTF8.self), letter.keyString ?? ""]
            + letter.headers.map { "\($0.name)=\($0.stringValue ?? "")" }
        #expect(!everything.joined().contains(secret))
        #expect(server.requests.count == RetryPolicy().maxAttempts, "a 401 is tried the worker's every attempt")
        await cluster.shutdown()
    }
}
