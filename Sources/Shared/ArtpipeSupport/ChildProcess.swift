import Foundation
import Synchronization

/// A program run as a child process, its standard output and error appended to files: the
/// demo's roles and the tests' workers.
///
/// Unchecked Sendable: its state is in `Process`, whose queries, signals and waits are safe
/// from any thread, and in the exit once seen, under a mutex.
package final class ChildProcess: @unchecked Sendable {
    package let process = Process()
    package let outputURL: URL
    let errorURL: URL

    /// Starts `executableURL`; `environment` is added to this process's own. Standard error
    /// goes to `outputURL` too unless `errorURL` is given.
    package init(
        executableURL: URL, arguments: [String], environment: [String: String] = [:], outputURL: URL,
        errorURL: URL? = nil
    ) throws {
        self.outputURL = outputURL
        self.errorURL = errorURL ?? outputURL
        process.executableURL = executableURL
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = try Self.appending(to: outputURL)
        process.standardOutput = output
        process.standardError = errorURL == nil ? output : try Self.appending(to: self.errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    private static func appending(to url: URL) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: url.path) {
            FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: url)
        handle.seekToEndOfFile()
        return handle
    }

    /// Whether it still runs. Foundation's own answer can stay true after the process exited
    /// (seen in the tests: a zombie, never reaped, for minutes), so the kernel is asked too,
    /// without reaping it (`WNOWAIT`), which leaves the reaping to Foundation.
    package var isRunning: Bool { process.isRunning && exited == nil }
    /// Its exit status, or the signal that ended it.
    package var exitStatus: Int32 { exited?.status ?? process.terminationStatus }
    /// Whether a signal ended it.
    package var exitedBySignal: Bool {
        exited.map(\.bySignal) ?? (process.terminationReason == .uncaughtSignal)
    }

    /// How the process ended, from the kernel, while Foundation may not know yet; nil while it runs.
    /// Kept once seen: Foundation may reap the process between two questions, and then asking
    /// the kernel finds no child while Foundation's own status is not set yet (its getter traps).
    private var exited: (status: Int32, bySignal: Bool)? {
        observedExit.withLock { observed in
            if let observed { return observed }
            var info = siginfo_t()
            guard waitid(P_PID, id_t(process.processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
                info._sifields._sigchld.si_pid == process.processIdentifier
            else { return nil }
            observed = (info._sifields._sigchld.si_status, info.si_code != CLD_EXITED)
            return observed
        }
    }
    private let observedExit = Mutex<(status: Int32, bySignal: Bool)?>(nil)
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends `signal` while the process runs.
    package func signal(_ signal: Int32) {
        if isRunning { kill(process.processIdentifier, signal) }
    }

    /// User plus system CPU seconds so far, from /proc (nil once the process is gone).
    package var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The most resident memory it has used so far, in bytes (Linux's VmHWM), while it runs.
    package var peakResidentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1_024
    }

    /// Everything it wrote to standard output so far.
    package var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    /// Everything it wrote to standard error so far.
    package var errors: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    /// The last lines of its output, for error messages.
    package func outputTail(lines: Int) -> String {
        output.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// Kills the process if it still runs and waits for it: nothing outlives its owner.
    package func stop() {
        guard isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        // Not waitUntilExit: Foundation may miss the exit (see isRunning).
        while isRunning { usleep(10_000) }
    }

    deinit { stop() }
}
