import ArtpipeSupport
import Foundation
import HTTPFetching

/// An OAI-PMH repository served by PyPI's oai-repo (`Tests/Servers/oai_repo_server.py`, which
/// `make setup` installs), on loopback: the independent server the harvest tests run against.
package final class OAIRepoServer: Sendable {
    let process: ChildProcess
    package let baseURL: String

    /// - Parameter arguments: the script's other flags (`--formats`, `--granularity`, `--images-here`…).
    package init(records: Int, arguments: [String] = []) async throws {
        guard let root = ChildProcess.packageRoot() else {
            throw DeadlineExceeded(description: "no package root to find the server in")
        }
        let script = root.appendingPathComponent("Tests/Servers/oai_repo_server.py")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("oai-repo"))
        let child = try ChildProcess(
            executableURL: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [TestPython.path, script.path, "--records", String(records)] + arguments, outputURL: output)
        process = child
        var port = ""
        try await waitUntil("oai-repo to listen (make setup installs it)", timeout: .seconds(30)) {
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
