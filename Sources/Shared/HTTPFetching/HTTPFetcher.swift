import ArtpipeSupport
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// GET requests for the sources: bounded in time and size, retried with backoff on 429,
/// 5xx and connection errors (honouring `Retry-After`), limited in rate and concurrency per
/// host. Everything it reports has the secrets redacted.
package final class HTTPFetcher: Sendable {
    private let client: HTTPClient
    /// Clients for hosts that the URL check resolved: they connect to the address it approved.
    private let pinned: PinnedClients
    private let configuration: HTTPFetcherConfiguration
    private let limits: HostLimits
    private let redaction: SecretRedaction
    private let logger: Logger
    /// Bytes of bodies held at once, when bounded.
    private let bodyBudget: ByteBudget?
    /// Checked before every request and every redirect hop, besides a request's own check.
    private let policy: HostPolicy?

    /// - Parameter bodyBudget: when set, bodies in flight and held by callers take at most
    ///   this many bytes together; each successful response's ``HTTPFetchResponse/reservedBytes``
    ///   must be given back with ``release(_:)``.
    ///   - policy: the hosts every request and every redirect may reach; nil for any.
    package init(
        configuration: HTTPFetcherConfiguration, redaction: SecretRedaction, logger: Logger, bodyBudget: Int? = nil,
        policy: HostPolicy? = nil
    ) {
        self.bodyBudget = bodyBudget.map { ByteBudget(capacity: $0) }
        self.policy = policy
        var clientConfiguration = HTTPClient.Configuration(
            // Redirects are followed here, not by the client, so every hop passes the URL check.
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .nanoseconds(configuration.connectTimeout.nanoseconds),
                read: .nanoseconds(configuration.readTimeout.nanoseconds)))
        // The pool's default of 8 connections per host would cap the per-host concurrency below its setting.
        clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(
            8, configuration.concurrencyPerHost)
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        self.pinned = PinnedClients(configuration: clientConfiguration)
        self.configuration = configuration
        self.limits = HostLimits(
            requestsPerSecond: configuration.requestsPerSecond,
            requestsPerSecondByHost: configuration.requestsPerSecondByHost,
            concurrencyPerHost: configuration.concurrencyPerHost)
        self.redaction = redaction
        self.logger = logger
    }

    /// Gives a response's bytes back to the body budget.
    package func release(_ response: HTTPFetchResponse) {
        if response.reservedBytes > 0 { bodyBudget?.release(response.reservedBytes) }
    }

    /// The most body bytes held at once so far (0 without a budget).
    package var peakBodyBytes: Int { bodyBudget?.peakInUse ?? 0 }

    /// Closes the connection pool.
    package func shutdown() async throws {
        await pinned.shutdown()
        try await client.shutdown()
    }

    /// Fetches `url`, returning a 2xx response or throwing an ``HTTPFetchError``.
    ///
    /// - Parameter headers: added to every request, redirects included.
    /// - Parameter check: asked before the request and before following each redirect; what
    ///   it throws becomes ``HTTPFetchError/refused(url:reason:)``. It returns the addresses it
    ///   approved for the URL's host, and the connection goes to one of them, not to what a
    ///   second look-up might answer; none (it looked nothing up) connects by name.
    package func get(
        _ url: URL, accept: String = "application/json", headers: [(String, String)] = [],
        check: (@Sendable (URL) async throws -> [String])? = nil
    ) async throws -> HTTPFetchResponse {
        var current = url
        var redirects = 0
        var attempt = 0
        while true {
            let shownURL = redaction.apply(current.absoluteString)
            guard let host = current.host, current.scheme == "http" || current.scheme == "https" else {
                throw HTTPFetchError.invalidURL(shownURL)
            }
            attempt += 1
            let failure: String
            var retryAfter: Duration?
            do {
                var addresses: [String] = []
                let policyCheck: (@Sendable (URL) async throws -> [String])? = policy.map { policy in
                    { @Sendable url in try await policy.check(url) }
                }
                let checks = [policyCheck, check].compactMap { $0 }
                for check in checks {
                    do {
                        let approved = try await check(current)
                        if !approved.isEmpty { addresses = approved }
                    } catch let error as any ClassifiedError where !error.failureClass.isForGood {
                        // A check that cannot decide now (a name look-up failed): retried like a
                        // connection error, not a refusal of the URL.
                        throw error
                    } catch {
                        throw HTTPFetchError.refused(url: shownURL, reason: redaction.apply("\(error)"))
                    }
                }
                if let hold = limits.hold(of: host), hold.remaining > configuration.maxWaitInPlace {
                    throw HTTPFetchError.throttled(url: shownURL, retryAfter: hold.remaining, reason: hold.reason)
                }
                let target = current
                let response = try await limits.run(host: host) {
                    try await self.once(
                        target, accept: accept, headers: headers, shownURL: shownURL, addresses: addresses)
                }
                let verdict = HTTPResponseVerdict(
                    status: response.status, requestURL: current, retryAfterScale: configuration.retryAfterScale,
                    header: { response.header($0) })
                if verdict != .done { release(response) }
                switch verdict {
                case .done:
                    return response
                case .redirect(let next):
                    redirects += 1
                    guard redirects <= configuration.maxRedirects else {
                        throw HTTPFetchError.tooManyRedirects(
                            limit: configuration.maxRedirects, url: redaction.apply(url.absoluteString))
                    }
                    current = next
                    attempt = 0
                    continue
                case .retry(let reason, let serverDelay, let holdsHost):
                    failure = reason
                    retryAfter = serverDelay
                    if holdsHost, let serverDelay {
                        // The whole host is asking for a pause, not just this URL; never longer
                        // than anything here would wait.
                        limits.hold(
                            host: host, until: .now + min(serverDelay, configuration.maxRetryAfter), reason: reason)
                    }
                case .reject(let status, let reason):
                    let prefix = reason ?? String(decoding: response.body.prefix(300), as: UTF8.self)
                    throw HTTPFetchError.rejected(status: status, url: shownURL, bodyPrefix: redaction.apply(prefix))
                }
            } catch let error as HTTPFetchError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failure = Self.describe(error, redaction: redaction)
            }
            if let retryAfter, retryAfter > configuration.maxRetryAfter {
                throw HTTPFetchError.waitTooLong(
                    url: shownURL, retryAfter: retryAfter, limit: configuration.maxRetryAfter)
            }
            if let retryAfter, retryAfter > configuration.maxWaitInPlace {
                throw HTTPFetchError.throttled(url: shownURL, retryAfter: retryAfter, reason: failure)
            }
            guard attempt < configuration.maxAttempts else {
                throw HTTPFetchError.exhausted(attempts: attempt, url: shownURL, lastFailure: failure)
            }
            // The server's wait is a floor: `Retry-After: 0` or a past date leaves our backoff.
            let delay = max(retryAfter ?? .zero, backoff(afterAttempt: attempt))
            logger.warning(
                "request failed; retrying",
                metadata: [
                    "http.url": "\(shownURL)", "reason": "\(failure)", "attempt": "\(attempt)", "retry.in": "\(delay)",
                ])
            try await Task.sleep(for: delay)
        }
    }

    /// A short reason for a transport error: timeouts and refused connections by name.
    static func describe(_ error: any Error, redaction: SecretRedaction) -> String {
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .tlsHandshakeTimeout: return "timeout"
            default: break
            }
        }
        let text = "\(error)"
        if text.contains("connectTimeout") || text.contains("deadlineExceeded") { return "timeout" }
        return redaction.apply(text)
    }

    private func once(
        _ url: URL, accept: String, headers: [(String, String)], shownURL: String, addresses: [String]
    ) async throws -> HTTPFetchResponse {
        guard let host = url.host, !addresses.isEmpty else {
            return try await once(url, accept: accept, headers: headers, shownURL: shownURL, client: client)
        }
        return try await pinned.withClient(host: host, addresses: addresses) { client in
            try await once(url, accept: accept, headers: headers, shownURL: shownURL, client: client)
        }
    }

    private func once(
        _ url: URL, accept: String, headers: [(String, String)], shownURL: String, client: HTTPClient
    ) async throws -> HTTPFetchResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: accept)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        let response = try await client.execute(
            request, timeout: .nanoseconds(configuration.requestTimeout.nanoseconds), logger: logger)
        let limit = configuration.maxResponseBytes
        // What the body may take: its announced length, else the most it may be; the
        // difference is given back once it is read.
        let announced = response.headers.first(name: "Content-Length").flatMap(Int.init)
        let reserved = min(announced ?? limit, limit)
        if let bodyBudget { await bodyBudget.acquire(reserved) }
        // Refuses a Content-Length over the limit before reading, and stops reading as soon as
        // a body without one passes it.
        let body: [UInt8]
        do {
            body = try await response.bytes(upTo: limit, announced: announced)
        } catch is NIOTooManyBytesError {
            bodyBudget?.release(reserved)
            throw HTTPFetchError.tooLarge(limit: limit, url: shownURL)
        } catch {
            bodyBudget?.release(reserved)
            throw error
        }
        var fetched = HTTPFetchResponse(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
            body: body)
        if let bodyBudget {
            let held = bodyBudget.charge(for: fetched.body.count)
            let charged = bodyBudget.charge(for: reserved)
            if held < charged { bodyBudget.release(charged - held) }
            fetched.reservedBytes = held
        }
        return fetched
    }

    private func backoff(afterAttempt attempt: Int) -> Duration {
        let policy = RetryPolicy(
            maxAttempts: configuration.maxAttempts, initialDelay: configuration.initialBackoff,
            maxDelay: configuration.maxBackoff)
        return policy.delay(afterAttempt: attempt)
    }

}
