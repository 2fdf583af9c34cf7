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
