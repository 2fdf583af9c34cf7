import ArtpipeSupport
import Foundation

extension ChildProcess {
    /// Starts a built executable of this package (`artpipe`, `artpipe-probe`), its standard
    /// output and error in files of a new temporary directory.
    package convenience init(_ product: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("artpipe-child"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try self.init(
            executableURL: try Self.productURL(product), arguments: arguments, environment: environment,
            outputURL: directory.appendingPathComponent("stdout"), errorURL: directory.appendingPathComponent("stderr"))
    }

    /// Where SwiftPM put the package's executables: beside the test bundle.
    static func productURL(_ name: String) throws -> URL {
        var candidates: [URL] = []
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent(name))
        candidates.append(
            testBinary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(name))
        if let packageRoot = packageRoot() {
            candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw DeadlineExceeded(description: "executable \(name) not built (looked in \(candidates.map(\.path)))")
    }

    /// The folder holding `Package.swift`, found by walking up from this file, so moving the
    /// test kit does not break the lookup.
    package static func packageRoot(from file: String = #filePath) -> URL? {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    package var stdout: String { output }
    package var stderr: String { errors }

    /// Waits for the process to exit and returns its status. When it does not, the error names
    /// the command and ends with what it printed last.
    package func waitForExit(timeout: Duration) async throws -> Int32 {
        let command = ([process.executableURL?.lastPathComponent ?? "child"] + (process.arguments?.prefix(1) ?? []))
            .joined(separator: " ")
        do {
            try await waitUntil("\(command) to exit", timeout: timeout) { !isRunning }
        } catch let error as DeadlineExceeded {
            // Z: it exited and Foundation has not reaped it; anything else: it still runs.
            let state =
                (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8))
                .flatMap { $0.split(separator: ")").last?.split(separator: " ").first }.map(String.init) ?? "gone"
            throw DeadlineExceeded(
                description:
                    "\(error.description) (process state \(state)); its last output: \(outputTail(lines: 12)); its last errors: \(errors.split(separator: "\n").suffix(6).joined(separator: "\n"))"
            )
        }
        return exitStatus
    }
}
