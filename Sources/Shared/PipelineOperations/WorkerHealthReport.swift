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
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""),
                parsed.host?.isEmpty == false, parsed.query == nil
            else {
                throw ConfigurationError("--workers: '\(url)' is not an http(s) URL such as http://10.0.0.5:8080")
            }
        }
        return urls
    }

    /// Asks each of `urls` (a worker's `http://HOST:PORT`) for `/healthz` and `/readyz`, all at
    /// once, each question waiting `timeout` at most; a worker that does not answer is reported so.
    package static func read(_ urls: [String], timeout: Duration) async -> [WorkerHealthReport] {
        guard !urls.isEmpty else { return [] }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let reports = await withTaskGroup(of: (Int, WorkerHealthReport).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    let base = url.hasSuffix("/") ? String(url.dropLast()) : url
                    async let health = ask("\(base)/healthz", client: client, timeout: timeout)
                    async let readiness = ask("\(base)/readyz", client: client, timeout: timeout)
                    let (healthy, ready) = await (health, readiness)
                    return (
                        index,
                        WorkerHealthReport(
                            url: url, healthy: healthy.ok, ready: ready.ok,
                            detail: healthy.ok ? ready.text : healthy.text)
                    )
                }
            }
            var reports: [(Int, WorkerHealthReport)] = []
            for await report in group { reports.append(report) }
            return reports.sorted { $0.0 < $1.0 }.map(\.1)
        }
        try? await client.shutdown()
        return reports
    }

    /// An answer's status and its first line (at most 300 characters): a worker's answer is one
    /// line, anything else is not pasted whole into the report.
    private static func ask(_ url: String, client: HTTPClient, timeout: Duration) async -> (ok: Bool, text: String) {
        do {
            let response = try await client.execute(
                HTTPClientRequest(url: url), timeout: .milliseconds(Int64(timeout / .milliseconds(1))))
            let body = try await response.body.collect(upTo: 1 << 20)
            let line = String(buffer: body).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            let text = line.trimmingCharacters(in: .whitespaces)
            return (
                (200..<300).contains(Int(response.status.code)),
                text.isEmpty ? "HTTP \(response.status.code)" : String(text.prefix(300))
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
