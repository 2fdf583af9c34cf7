import ArtpipeSupport
import Foundation
import HTTPFetching

/// An OAI-PMH repository on loopback, served by one of two independent implementations from
/// PyPI, which `make setup` installs: oai-repo (`Tests/Servers/oai_repo_server.py`) or pyoai
/// (`oaipmh`, `Tests/Servers/pyoai_server.py`).
package final class OAIRepoServer: Sendable {
    let process: ChildProcess
    package let baseURL: String

    /// - Parameters:
    ///   - script: the server's script in `Tests/Servers/`.
    ///   - arguments: the script's other flags (`--formats`, `--granularity`, `--images-here`…).
    package init(records: Int, arguments: [String] = [], script name: String = "oai_repo_server.py") async throws {
        guard let root = ChildProcess.packageRoot() else {
            throw DeadlineExceeded(description: "no package root to find the server in")
        }
        let script = root.appendingPathComponent("Tests/Servers/\(name)")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("oai-repo"))
        let child = try ChildProcess(
            executableURL: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [TestPython.path, script.path, "--records", String(records)] + arguments, outputURL: output)
        process = child
        var port = ""
        try await waitUntil("\(name) to listen (make setup installs it)", timeout: .seconds(30)) {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            port = text.split(separator: "\n").first { $0.hasPrefix("port: ") }.map { String($0.dropFirst(6)) } ?? ""
            return !port.isEmpty || !child.isRunning
        }
        guard !port.isEmpty else {
            child.stop()
            throw DeadlineExceeded(
                description: "oai-repo did not start: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
        }
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// The OAI-PMH base URL.
    package var endpoint: String { baseURL + "/oai" }

    /// Asks the server to change its records; returns the identifiers it changed.
    package func control(_ path: String, http: HTTPFetcher) async throws -> [String] {
        let response = try await http.get(URL(string: baseURL + path)!)
        return String(decoding: response.body, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    package func stop() {
        process.stop()
    }
}
