import ArtpipeSupport
import AsyncHTTPClient
import Foundation
import NIOCore

/// What one worker's HTTP port says of it (`artpipe status --workers`): its `/healthz` and
/// `/readyz` answers, where a copy says what only it knows (a partition held because the broker
/// did not say where it starts, a restore that failed, history missing).
package struct WorkerHealthReport: Sendable, Equatable {
    /// The worker's base URL, as given.
    package let url: String
    package let healthy: Bool
    package let ready: Bool
    /// The answers' text, or why there was none.
    package let detail: String

    package init(url: String, healthy: Bool, ready: Bool, detail: String) {
        (self.url, self.healthy, self.ready, self.detail) = (url, healthy, ready, detail)
    }

    /// The URLs of `--workers`: comma-separated, each http(s) with a host.
    package static func urls(fromFlag flag: String) throws -> [String] {
        let urls = flag.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for url in urls {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil
            else {
                throw ConfigurationError("--workers: '\(url)' is not an http(s) URL such as http://10.0.0.5:8080")
            }
        }
        return urls
    }

    /// Asks each of `urls` (a worker's `http://HOST:PORT`) for `/healthz` and `/readyz`, each
    /// question waiting `timeout` at most; a worker that does not answer is reported so.
    package static func read(_ urls: [String], timeout: Duration) async -> [WorkerHealthReport] {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var reports: [WorkerHealthReport] = []
        for url in urls {
            let base = url.hasSuffix("/") ? String(url.dropLast()) : url
            let health = await ask("\(base)/healthz", client: client, timeout: timeout)
            let readiness = await ask("\(base)/readyz", client: client, timeout: timeout)
            reports.append(
                WorkerHealthReport(
                    url: url, healthy: health.ok, ready: readiness.ok,
                    detail: health.ok ? readiness.text : health.text))
        }
        try? await client.shutdown()
        return reports
    }

    private static func ask(_ url: String, client: HTTPClient, timeout: Duration) async -> (ok: Bool, text: String) {
        do {
            let response = try await client.execute(
                HTTPClientRequest(url: url), timeout: .milliseconds(Int64(timeout / .milliseconds(1))))
            let body = try await response.body.collect(upTo: 64 << 10)
            let text = String(buffer: body).trimmingCharacters(in: .whitespacesAndNewlines)
            return (
                (200..<300).contains(Int(response.status.code)), text.isEmpty ? "HTTP \(response.status.code)" : text
            )
        } catch {
            return (false, "no answer: \(error)")
        }
    }

    /// One line of `artpipe status`.
    package var line: String {
        let state = !healthy ? "UNHEALTHY" : ready ? "ready" : "not ready"
        return "  \(url)\t\(state): \(detail)"
    }
}
