import Foundation
import PipelineContract

extension PipelineStatus {
    /// Pages whose request or page waits on a retry topic and that got no further meanwhile.
    private func retrying(_ all: [PageState]) -> [PageState] {
        all.filter { $0.retry != nil && $0.failure == nil && $0.stage == $0.retryFrom }
    }

    /// What `artpipe status` prints: the pages' counts, each failed, retrying and waiting page
    /// (the long lists cut), the dead letters and every group's lag.
    package var text: String {
        let all = pages.values.sorted {
            ($0.crawlId ?? "", $0.page ?? 0, $0.pageId) < ($1.crawlId ?? "", $1.page ?? 0, $1.pageId)
        }
        let count = { (stage: Stage) in all.filter { $0.stage >= stage }.count }
        var lines = [
            "pages: \(all.count) requested, \(count(.fetched)) fetched, \(count(.thumbnailed)) thumbnailed, "
                + (indexRead ? "\(count(.indexed)) indexed" : "indexed unknown (give --out)")
                + ", \(all.filter { $0.failure != nil }.count) failed"
                + ", \(retrying(all).count) waiting for a retry"
        ]
        for gap in missingHistory {
            lines.append("  INDEX NOT PUBLISHED: \(gap); see docs/operations.md, \"History missing\"")
        }
        for state in all where state.failure != nil {
            lines.append(
                "  failed  \(state.pageId) (page \(state.page.map(String.init) ?? "?")) in \(state.failure!.worker): "
                    + state.failure!.reason)
        }
        for state in retrying(all).prefix(50) {
            let retry = state.retry!
            lines.append(
                "  retry   \(state.pageId) (page \(state.page.map(String.init) ?? "?")): attempt \(retry.attempts + 1) at "
                    + "\(retry.due.formatted(.iso8601)), failing since \(retry.firstFailure.formatted(.iso8601)): "
                    + retry.lastReason)
        }
        if retrying(all).count > 50 { lines.append("  … and \(retrying(all).count - 50) more waiting for a retry") }
        let waiting = all.filter {
            $0.failure == nil && $0.retry == nil && $0.stage < (indexRead ? .indexed : .thumbnailed)
        }
        for state in waiting.prefix(20) {
            lines.append("  waiting \(state.pageId) (page \(state.page.map(String.init) ?? "?")): \(state.stage)")
        }
        if waiting.count > 20 { lines.append("  … and \(waiting.count - 20) more waiting") }
        var counts = deadRecords > 0 ? ["\(deadRecords) of them single unreadable records"] : []
        if deadLetterMessages > deadLetters {
            counts.append("\(deadLetterMessages) messages, with those sent again after a redelivery")
        }
        lines.append("dead letters: \(deadLetters)" + (counts.isEmpty ? "" : " (\(counts.joined(separator: "; ")))"))
        for record in deadRecordList {
            // The reason's start: it quotes the record, which may be long.
            let reason = record.reason.prefix(scalars: 200)
            lines.append("  unreadable \(record.recordId) (page \(record.pageId)): \(reason)")
        }
        if deadRecords > deadRecordList.count {
            lines.append("  … and \(deadRecords - deadRecordList.count) more unreadable records")
        }
        lines.append("lag (messages not yet handled, per group and topic; per partition in brackets):")
        for lag in lags {
            let parts = lag.partitions.map { $0.map(String.init) ?? "-" }.joined(separator: " ")
            lines.append("  \(lag.group)\t\(lag.topic)\t\(lag.total)\t[\(parts)]")
        }
        if !workers.isEmpty { lines.append(Self.workersText(workers)) }
        return lines.joined(separator: "\n")
    }

    /// The workers' section of ``text``, printed alone when the topics could not be read.
    package static func workersText(_ workers: [WorkerHealthReport]) -> String {
        (["workers (their /healthz and /readyz):"] + workers.map(\.line)).joined(separator: "\n")
    }
}
