import ArtpipeSupport
import ArtpipeTestKit
import FetchWorker
import Foundation
import HTTPFetching
import HTTPTestKit
import PipelineContract
import Testing

/// Source requests obey the host policy at every hop, as image downloads do.
@Suite("Source requests and the host policy", .timeLimit(.minutes(1)))
struct SourceHostPolicyTests {
    static func fetcher(baseURL: String?) -> HTTPFetcher {
        var configuration = HTTPFetcherConfiguration()
        configuration.maxAttempts = 1
        return HTTPFetcher(
            configuration: configuration, redaction: SecretRedaction(secrets: []), logger: .test,
            policy: .sources(baseURL: baseURL.flatMap(URL.init(string:))))
    }

    @Test("each source follows a redirect within --base-url's host, and refuses one to another host, loopback included")
    func redirects() async throws {
        let server = try await TestHTTPServer.start { request in
            switch request.path {
            case "/elsewhere": TestHTTPServer.Response(status: 500)
            case "/same": TestHTTPServer.Response(status: 404)
            default:
                TestHTTPServer.Response(
                    status: 302,
                    headers: [("Location", request.query["to"] == "same" ? "/same" : "http://localhost:1/elsewhere")])
            }
        }
        let http = Self.fetcher(baseURL: server.baseURL)
        let base = URL(string: server.baseURL)!
        let sources: [(any CollectionSource, [String: String])] = [
            (
                OAICollectionSource(
                    endpoint: base.appendingPathComponent("oai"), language: "en", imageEdge: 512, http: http,
                    logger: .test), [:]
            ),
            (LegacyCollectionSource(baseURL: base, apiKey: "k", imageEdge: 512, http: http), [:]),
            (FlickrSearchSource(endpoint: base, apiKey: "k", imageEdge: 512, http: http), ["text": "x"]),
            (ITunesSearchSource(endpoint: base, imageEdge: 512, http: http), ["term": "x"]),
        ]
        for (source, query) in sources {
            let away = PageRequest(crawlId: "c", source: source.name, query: query, page: 1, pageSize: 10)
            let refused = await #expect(throws: HTTPFetchError.self, "\(source.name)") { try await source.fetch(away) }
            #expect(refused?.failureClass.isForGood == true, "\(source.name): \(String(describing: refused))")
            #expect(refused?.description.contains("localhost is not an allowed host") == true, "\(source.name)")
        }
        // Within the stand-in's own host the redirect is followed (and its 404 is what comes back).
        let within = try await #require(
            await #expect(throws: HTTPFetchError.self) {
                try await http.get(URL(string: server.baseURL + "/x?to=same")!)
            })
        #expect(within.description.contains("HTTP 404"), "\(within)")
        #expect(!server.requests.contains { $0.path == "/elsewhere" })
        try await http.shutdown()
        await server.stop()
    }

    @Test("without --base-url only the sources' own hosts are reached, never an address or a look-alike")
    func ownHostsOnly() async throws {
        let policy = HostPolicy.sources(baseURL: nil)
        for url in [
            "http://127.0.0.1/oai", "http://10.0.0.1/oai", "http://169.254.169.254/latest/meta-data",
            "https://data.rijksmuseum.nl.evil.example/oai", "https://evilrijksmuseum.nl/", "ftp://data.rijksmuseum.nl/",
        ] {
            await #expect(throws: HostPolicy.Refusal.self, "\(url)") { try await policy.check(URL(string: url)!) }
        }
    }

    @Test("oai-pmh refuses a repository at a private address, and the refusal names --private-host with its host")
    func privateRepositoryHint() async throws {
        // A literal address: nothing is looked up in DNS.
        let policy = HostPolicy.anyPublicHost(trusting: nil)
        let refusal = try #require(
            await #expect(throws: HostPolicy.Refusal.self) {
                try await policy.check(URL(string: "http://127.0.0.1:9/oai")!)
            })
        #expect(
            refusal.description
                == "host 127.0.0.1 is a private address (127.0.0.1); a host of your own network is allowed with --private-host 127.0.0.1"
        )
        // The museum's own sources have no such flag: their refusal names none.
        let museum = try #require(
            await #expect(throws: HostPolicy.Refusal.self) {
                try await HostPolicy.sources(baseURL: nil).check(URL(string: "http://127.0.0.1/oai")!)
            })
        #expect(!museum.description.contains("--private-host"), "\(museum)")
    }

    @Test("--private-host lets oai-pmh reach that host at a private address, and only that host")
    func privateRepositoryAllowed() async throws {
        let policy = HostPolicy.anyPublicHost(
            trusting: nil, privateHosts: try HostPolicy.privateHosts(flags: ["127.0.0.1:8080"], environment: [:]))
        #expect(try await policy.check(URL(string: "http://127.0.0.1:9/oai")!) == [])
        let other = try #require(
            await #expect(throws: HostPolicy.Refusal.self) {
                try await policy.check(URL(string: "http://10.0.0.1/oai")!)
            })
        #expect(other.description.contains("--private-host 10.0.0.1"), "\(other)")
        // --base-url's host stays trusted beside it, as for stand-ins.
        let both = HostPolicy.anyPublicHost(trusting: URL(string: "http://localhost:9"), privateHosts: ["10.0.0.1"])
        #expect(try await both.check(URL(string: "http://LOCALHOST:9/oai")!) == [])
        #expect(try await both.check(URL(string: "http://10.0.0.1/oai")!) == [])
    }

    @Test("--private-host's hosts, written any way, else ARTPIPE_PRIVATE_HOSTS's; the flag wins")
    func privateHostOption() throws {
        #expect(
            try HostPolicy.privateHosts(
                flags: ["OAI.Intranet", "oai.intranet.", "http://oai.intranet:8080/oai", "10.1.2.3"], environment: [:])
                == ["oai.intranet", "10.1.2.3"])
        let environment = [HostPolicy.privateHostsVariable: "oai.intranet, ,[FD00::1]:8080,"]
        #expect(try HostPolicy.privateHosts(flags: [], environment: environment) == ["oai.intranet", "fd00::1"])
        #expect(try HostPolicy.privateHosts(flags: ["other.lan"], environment: environment) == ["other.lan"])
        #expect(try HostPolicy.privateHosts(flags: [], environment: [:]) == [])
        let bad = try #require(
            #expect(throws: ConfigurationError.self) {
                try HostPolicy.privateHosts(flags: ["oai.intranet/oai"], environment: [:])
            })
        #expect(bad.description.hasPrefix("--private-host: 'oai.intranet/oai' is not a host name"), "\(bad)")
        let badVariable = try #require(
            #expect(throws: ConfigurationError.self) {
                try HostPolicy.privateHosts(flags: [], environment: [HostPolicy.privateHostsVariable: "a b"])
            })
        #expect(badVariable.description.hasPrefix(HostPolicy.privateHostsVariable), "\(badVariable)")
    }
}
