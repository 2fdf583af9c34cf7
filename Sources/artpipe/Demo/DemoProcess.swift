import Foundation

/// One role of the demo (`broker`, `fetch-worker`…) run as a child process of this same
/// executable, its stdout and stderr appended to `logs/<name>.log`.
final class DemoProcess: @unchecked Sendable {
    let name: String
    let logURL: URL
    private let process = Process()

    init(name: String, arguments: [String], logDirectory: URL) throws {
        self.name = name
        logURL = logDirectory.appendingPathComponent("\(name).log")
        if !FileManager.default.fileExists(atPath: logURL.path) {
            FileManager.default.createFile(atPath: logURL.path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: logURL)
        log.seekToEndOfFile()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var isRunning: Bool { process.isRunning }
    var exitStatus: Int32 { process.terminationStatus }
    var processIdentifier: Int32 { process.processIdentifier }

    /// User plus system CPU seconds so far, from /proc (nil once the process is gone).
    var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// The last lines of its log, for error messages.
    func logTail(lines: Int = 8) -> String {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}
