import Foundation

/// A built executable of this package (`artpipe`, `artpipe-probe`) run as a child process,
/// with stdout and stderr going to files the test can read.
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    public let stdoutURL: URL
    public let stderrURL: URL

    /// Starts `executable` (a product name) with `arguments`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("artpipe-child"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        stdoutURL = directory.appendingPathComponent("stdout")
        stderrURL = directory.appendingPathComponent("stderr")
        try Data().write(to: stdoutURL)
        try Data().write(to: stderrURL)
        process.executableURL = try Self.productURL(executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        process.environment = merged
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Where SwiftPM put the package's executables: beside the test bundle.
    public static func productURL(_ name: String) throws -> URL {
        var candidates: [URL] = []
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent(name))
        candidates.append(
            testBinary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(name))
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw DeadlineExceeded(description: "executable \(name) not built (looked in \(candidates.map(\.path)))")
    }

    public var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    public func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit and returns its status.
    public func waitForExit(timeout: Duration) async throws -> Int32 {
        try await waitUntil("\(process.executableURL?.lastPathComponent ?? "child") to exit", timeout: timeout) {
            !process.isRunning
        }
        return process.terminationStatus
    }

    /// Kills the process if it still runs; for test clean-up.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
