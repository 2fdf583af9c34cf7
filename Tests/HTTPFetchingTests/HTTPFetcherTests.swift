import ArtpipeTestKit
import Foundation
import HTTPFetching
import HTTPTestKit
import Logging
import Synchronization
import Testing

@Suite("HTTP fetching over loopback", .timeLimit(.minutes(2)))
struct HTTPFetcherTests {
    /// Answers from a script, one entry per request; the last entry repeats.
    final class Script: Sendable {
        private let answers: Mutex<[TestHTTPServer.Response]>
        init(_ answers: [TestHTTPServer.Response]) { self.answers = Mutex(answers) }
        func next() -> TestHTTPServer.Response {
            answers.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        }
    }

    /// Every fetcher the tests made. A test that throws before its `shutdown()` would drop its
    /// fetcher unshut, and AsyncHTTPClient traps at that deinit, ending the whole test process
    /// (seen on a loaded machine, where a get ran out of retries): kept here, it fails alone.
    static let made = Mutex<[HTTPFetcher]>([])

    func fetcher(_ configure: (inout HTTPFetcherConfiguration) -> Void = { _ in }) -> HTTPFetcher {
        var configuration = HTTPFetcherConfiguration()
        configuration.initialBackoff = .milliseconds(20)
        configuration.maxBackoff = .milliseconds(100)
        configure(&configuration)
        return Self.kept(
            HTTPFetcher(
                configuration: configuration, redaction: SecretRedaction(secrets: ["s3cret-key"]), logger: .test))
    }

    static func kept(_ fetcher: HTTPFetcher) -> HTTPFetcher {
        made.withLock { $0.append(fetcher) }
        return fetcher
    }

    @Test("429 with Retry-After: 1, then 200: retried after the delay")
    func retryAfter() async throws {
        let script = Script([TestHTTPServer.Response(status: 429, headers: [("Retry-After", "1")]), .json("{}")])
        let server = try await TestHTTPServer.start { _ in script.next() }
        let http = fetcher()
        let start = ContinuousClock.now
        let response = try await http.get(URL(string: "\(server.baseURL)/x")!)
        let elapsed = start.duration(to: .now)
        #expect(response.status == 200)
        #expect(server.requests.count == 2)
        #expect(elapsed >= .seconds(1), "waited \(elapsed)")
        try await http.shutdown()
        await server.stop()
    }

    @Test("429 with Retry-After: 3600: fails at once as throttled, and the host gets nothing more until the time is up")
    func longRetryAfter() async throws {
        let script = Script([TestHTTPServer.Response(status: 429, headers: [("Retry-After", "3600")]), .json("{}")])
        let server = try await TestHTTPServer.start { _ in script.next() }
        let http = fetcher()
        let error = await #expect(throws: HTTPFetchError.self) {
            try await http.get(URL(string: "\(server.baseURL)/x?key=s3cret-key")!)
        }
        #expect(error?.failureClass.isForGood == false)
        #expect(error?.failureClass.retryAfter == .seconds(3_600))
        #expect(error?.description.contains("s3cret-key") == false)
        // Another URL of the same host: refused without a request, for what is left of the hour.
        let held = await #expect(throws: HTTPFetchError.self) {
            try await http.get(URL(string: "\(server.baseURL)/y")!)
        }
        let left = try #require(held?.failureClass.retryAfter)
        #expect(left > .seconds(3_590) && left <= .seconds(3_600), "\(left)")
        #expect(server.requests.count == 1)
        try await http.shutdown()
        await server.stop()
    }

    @Test(
        "a Retry-After past maxRetryAfter fails for good, traps on no number or date, and holds the host no longer",
        arguments: ["90000", "99999999999999999999999999", "Fri, 31 Dec 9999 23:59:59 GMT"])
    func hostileRetryAfter(_ value: String) async throws {
        let server = try await TestHTTPServer.start { _ in
            TestHTTPServer.Response(status: 429, headers: [("Retry-After", value)])
        }
        let http = fetcher { $0.maxRetryAfter = .seconds(86_400) }
        let error = await #expect(throws: HTTPFetchError.self) {
            try await http.get(URL(string: "\(server.baseURL)/x")!)
        }
        #expect(error?.failureClass.isForGood == true, "\(String(describing: error))")
        #expect(error?.description.contains("--retry-for") == true, "\(String(describing: error))")
        let held = await #expect(throws: HTTPFetchError.self) {
            try await http.get(URL(string: "\(server.baseURL)/y")!)
        }
        let left = try #require(held?.failureClass.retryAfter)
        #expect(left > .seconds(86_000) && left <= .seconds(86_400), "the host is held a day at most, not \(left)")
        #expect(server.requests.count == 1)
        try await http.shutdown()
        await server.stop()
    }

    @Test(
        "Retry-After: 0 and a date in the past are floors under the backoff: the attempts never go back to back",
        arguments: ["0", "Wed, 21 Oct 2015 07:28:00 GMT"])
    func retryAfterIsAFloor(retryAfter: String) async throws {
        let busy = TestHTTPServer.Response(status: 503, headers: [("Retry-After", retryAfter)])
        let script = Script([busy, busy, busy, busy, .json("{}")])
        let server = try await TestHTTPServer.start { _ in script.next() }
        let http = fetcher {
            $0.initialBackoff = .milliseconds(200)
            $0.maxBackoff = .seconds(2)
            $0.maxAttempts = 5
        }
        let start = ContinuousClock.now
        let response = try await http.get(URL(string: "\(server.baseURL)/x")!)
        let elapsed = start.duration(to: .now)
        #expect(response.status == 200 && server.requests.count == 5)
        // Our own backoff after attempts 1–4: at least 0.1 + 0.2 + 0.4 + 0.8 s.
        #expect(elapsed >= .milliseconds(1_500), "five requests in \(elapsed)")
        try await http.shutdown()
        await server.stop()
    }

    @Test("Retry-After is scaled by retryAfterScale (for tests) and a short one is waited out in place")
    func scaledRetryAfter() async throws {
        let script = Script([TestHTTPServer.Response(status: 503, headers: [("Retry-After", "100")]), .json("{}")])
        let server = try await TestHTTPServer.start { _ in script.next() }
        let http = fetcher { $0.retryAfterScale = 0.01 }
        let start = ContinuousClock.now
        let response = try await http.get(URL(string: "\(server.baseURL)/x")!)
        let elapsed = start.duration(to: .now)
        #expect(response.status == 200)
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(30), "waited \(elapsed)")
        #expect(server.requests.count == 2)
        try await http.shutdown()
        await server.stop()
    }

    @Test("with a body budget, bodies held by callers and in flight never pass it together")
    func bodyBudget() async throws {
        let megabyte = [UInt8](repeating: 0x61, count: 1 << 20)
        let server = try await TestHTTPServer.start { _ in TestHTTPServer.Response(body: megabyte) }
        let http = Self.kept(
            HTTPFetcher(
                configuration: HTTPFetcherConfiguration(), redaction: SecretRedaction(secrets: []), logger: .test,
                bodyBudget: 3 << 19))  // 1.5 MiB: room for one body at a time
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let response = try await http.get(URL(string: "\(server.baseURL)/image")!)
                    #expect(response.body.count == 1 << 20 && response.reservedBytes == 1 << 20)
                    try await Task.sleep(for: .milliseconds(20))
                    http.release(response)
                }
            }
            try await group.waitForAll()
        }
        #expect(http.peakBodyBytes == 1 << 20, "\(http.peakBodyBytes)")
        #expect(server.requests.count == 6)
        try await http.shutdown()
        await server.stop()
    }

    @Test("a host is connected to the address its check approved; a change of address moves it to a new connection")
    func pinnedAddress() async throws {
        let server = try await TestHTTPServer.start { _ in .json("{}") }
        let port = try #require(URL(string: server.baseURL)?.port)
        let http = fetcher {
            $0.maxAttempts = 1
            $0.connectTimeout = .milliseconds(300)
        }
        let url = URL(string: "http://pinned.invalid:\(port)/x")!
        let approved = Mutex(["127.0.0.1"])
        let check: @Sendable (URL) async throws -> [String] = { _ in approved.withLock { $0 } }
        #expect(try await http.get(url, check: check).status == 200)
        // The same address among others: the pinned connection is kept.
        approved.withLock { $0 = ["127.0.0.3", "127.0.0.1"] }
        #expect(try await http.get(url, check: check).status == 200)
        // Another address only (nothing listens there): the request goes there, not by name.
        approved.withLock { $0 = ["127.0.0.3"] }
        await #expect(throws: HTTPFetchError.self) { try await http.get(url, check: check) }
        approved.withLock { $0 = ["127.0.0.1"] }
        #expect(try await http.get(url, check: check).status == 200)
        #expect(server.requests.count == 3)
        try await http.shutdown()
        await server.stop()
    }

    @Test("500 three times, then 200: succeeds on the fourth attempt")
    func serverErrors() async throws {
        let failure = TestHTTPServer.Response(status: 500)
        let script = Script([failure, failure, failure, .json("{\"ok\": true}")])
        let server = try await TestHTTPServer.start { _ in script.next() }
        let http = fetcher()
        let response = try await http.get(URL(string: "\(server.baseURL)/x")!)
        #expect(response.status == 200 && response.body == Array("{\"ok\": true}".utf8))
        #expect(server.requests.count == 4)
        try await http.shutdown()
        await server.stop()
    }

    @Test(
        "a 4xx is not retried in place and its error holds no secret; it passes unless it says the request or the resource is wrong",
        arguments: [(401, false), (403, false), (404, true), (410, true), (400, true)])
    func rejected(status: Int, forGood: Bool) async throws {
        let server = try await TestHTTPServer.start { request in
            TestHTTPServer.Response(status: status, body: Array("bad key \(request.query["key"] ?? "")".utf8))
        }
        let http = fetcher()
        let error = await #expect(throws: HTTPFetchError.self) {
            try await http.get(URL(string: "\(server.baseURL)/api?key=s3cret-key")!)
        }
        let text = try #require(error).description
        #expect(text.contains("HTTP \(status)"))
        #expect(!text.contains("s3cret-key"))
        #expect(text.contains("key=REDACTED"))
        #expect(error?.failureClass.isForGood == forGood)
        #expect(server.requests.count == 1)
        try await http.shutdown()
        await server.stop()
    }

    @Test("a server slower than the timeout is retried")
    func slowServer() async throws {
        let script = Script([TestHTTPServer.Response(delay: .seconds(3)), .json("{}")])
        let server = try await TestHTTPServer.start { _ in script.next() }
        let http = fetcher { $0.requestTimeout = .seconds(1) }
        let response = try await http.get(URL(string: "\(server.baseURL)/x")!)
        #expect(response.status == 200)
        // On a loaded machine the quick answer can time out too; it is then asked for again.
        #expect(server.requests.count >= 2)
        try await http.shutdown()
        await server.stop()
    }

    @Test("a 50 MB body is refused")
    func tooLarge() async throws {
        let body = [UInt8](repeating: UInt8(ascii: " "), count: 50_000_000)
        let server = try await TestHTTPServer.start { _ in TestHTTPServer.Response(body: body) }
        let http = fetcher()
        let error = await #expect(throws: HTTPFetchError.self) {
            try await http.get(URL(string: "\(server.baseURL)/big")!)
        }
        #expect(error?.description.contains("larger than") == true)
        #expect(error?.failureClass.isForGood == true)
        try await http.shutdown()
        await server.stop()
    }

    @Test("the per-host rate limit spaces requests out")
    func rateLimit() async throws {
        let server = try await TestHTTPServer.start { _ in .json("{}") }
        let http = fetcher { $0.requestsPerSecond = 10 }
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<11 { group.addTask { _ = try await http.get(URL(string: "\(server.baseURL)/x")!) } }
            try await group.waitForAll()
        }
        // Eleven requests at ten per second: the last starts a second after the first.
        #expect(start.duration(to: .now) >= .milliseconds(950))
        try await http.shutdown()
        await server.stop()
    }

    @Test("Retry-After as an HTTP date")
    func retryAfterDate() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let inTenSeconds = formatter.string(from: Date().addingTimeInterval(10))
        let parsed = RetryAfter.parse(inTenSeconds)
        #expect(parsed.map { $0 > .seconds(8) && $0 <= .seconds(10) } == true)
        #expect(RetryAfter.parse("7") == .seconds(7))
        #expect(RetryAfter.parse("soon") == nil)
        #expect(RetryAfter.parse("-5") == nil)
        #expect(RetryAfter.parse(String(repeating: "9", count: 400)) == RetryAfter.longest)
        #expect(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT") == RetryAfter.longest)
        #expect(RetryAfter.parse("Thu, 01 Jan 1970 00:00:00 GMT") == .zero)
    }
}

@Suite("Secret redaction")
struct SecretRedactionTests {
    @Test("a key is redacted as it is and percent-encoded in either case, whatever surrounds it")
    func encodedForms() {
        let redaction = SecretRedaction(secrets: ["k3y+/with=pad", nil, "ab"])
        let texts = [
            "GET /api/en/collection?key=k3y+/with=pad&p=1",
            "GET /api/en/collection?key=k3y%2B%2Fwith%3Dpad&p=1",
            "GET /api/en/collection?key=k3y%2b%2fwith%3dpad&p=1",
            "GET /api/en/collection?key=k3y+%2Fwith=pad&p=1",
        ]
        for text in texts {
            let shown = redaction.apply(text)
            #expect(shown == "GET /api/en/collection?key=REDACTED&p=1", "\(text) → \(shown)")
        }
        #expect(redaction.apply("about a cab") == "about a cab", "too short to be a key: left alone")
    }
}
