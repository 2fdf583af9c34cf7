import ArgumentParser
import ArtpipeSupport
import AsyncHTTPClient
import Foundation
import NIOCore

/// `artpipe healthcheck`: asks a worker's `/healthz` (or any URL), for container health checks
/// in an image that has no curl. Exit 0 for a 2xx answer, 1 for anything else, 2 for bad flags.
struct HealthcheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 when a worker's health endpoint (or another URL) answers 2xx, 1 otherwise.")

    @Option(help: "The URL to ask: a worker's --http-port, or the sample server.")
    var url: String = "http://127.0.0.1:8080/healthz"

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 5

    struct Unhealthy: Error, CustomStringConvertible {
        let description: String
    }

    func run() async throws {
        guard let target = URL(string: url), target.scheme == "http" || target.scheme == "https", target.host != nil
        else {
            throw ConfigurationError("--url: '\(url)' is not an http(s) URL")
        }
        guard timeout > 0 else { throw ConfigurationError("--timeout must be positive") }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let outcome: Result<HTTPClientResponse, any Error>
        do {
            outcome = .success(
                try await client.execute(
                    HTTPClientRequest(url: url), timeout: .milliseconds(Int64(timeout * 1_000))))
        } catch {
            outcome = .failure(error)
        }
        try await client.shutdown()
        switch outcome {
        case .success(let response) where (200..<300).contains(Int(response.status.code)):
            return
        case .success(let response):
            throw Unhealthy(description: "unhealthy: \(url) answered \(response.status.code)")
        case .failure(let error):
            throw Unhealthy(description: "unhealthy: \(url) did not answer: \(error)")
        }
    }
}
