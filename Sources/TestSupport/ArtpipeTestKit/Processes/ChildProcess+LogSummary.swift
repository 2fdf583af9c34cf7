import ArtpipeSupport
import Foundation

extension ChildProcess {
    /// What a timeout's message shows of a worker that may have stopped early: its last log
    /// lines other than metrics (assignments, restores, warnings, errors), then its last
    /// metrics line. A worker's tail alone is metrics, which say that it idles but not why.
    package func logSummary(lines: Int = 30) -> String {
        let all = stdout.split(separator: "\n")
        let events = all.filter { !$0.contains(#""msg":"metrics""#) && !$0.contains(#""level":"debug""#) }
        let metrics = all.last { $0.contains(#""msg":"metrics""#) } ?? "none"
        return "its last events: \(events.suffix(lines).joined(separator: "\n")); its last metrics: \(metrics)"
    }
}

extension ChildProcess {
    /// Keeps this process's whole log (standard output, then standard error, where the Swift
    /// backtracer writes a crash's frames) in a file of its own, for a test that saw it fail,
    /// and says where, with the crashed thread's first frames when there was a crash.
    package func keptLog(as name: String) -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make(name) + ".log")
        let written = (try? Data((stdout + "\n--- stderr ---\n" + stderr).utf8).write(to: file)) != nil
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
        var crash = ""
        if let start = lines.firstIndex(where: { $0.hasSuffix(" crashed:") }) {
            crash =
                "; crashed at: " + lines[start...].dropFirst().filter { !$0.isEmpty }.prefix(6).joined(separator: " | ")
        } else if let fatal = lines.first(where: { $0.contains("Fatal error") }) {
            crash = "; \(fatal)"
        }
        return (written ? "its whole log: \(file.path)" : "its log could not be kept") + crash
    }
}
