import Foundation
import IndexWorker
import KafkaClient
import PipelineContract

/// Where each page stands, from the topics (and the index, when there is one).
struct PipelineStatus {
    enum Stage: Int, Comparable, CustomStringConvertible {
        case requested, fetched, thumbnailed, indexed

        static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }

        var description: String {
            switch self {
            case .requested: "requested"
            case .fetched: "fetched"
            case .thumbnailed: "thumbnailed"
            case .indexed: "indexed"
            }
        }
    }

    struct PageState {
        let pageId: String
        var crawlId: String?
        var page: Int?
        var stage: Stage
        /// Set when a worker dead-lettered a message of this page.
        var failure: (worker: String, reason: String)?
        /// Set while a copy of its request (or of the fetched page) waits on a retry topic.
        var retry: RetryState?
        /// The stage the retried copy is the input of: `requested` for FetchWorker, `fetched` for ThumbWorker.
        var retryFrom: Stage = .requested
    }

    struct Lag {
        let group: String
        let topic: String
        /// Per partition, in partition order; nil where the group has no committed offset.
        let partitions: [Int64?]
        var total: Int64 { partitions.map { $0 ?? 0 }.reduce(0, +) }
    }

    var pages: [String: PageState] = [:]
    var lags: [Lag] = []
    /// Dead letters, each counted once: a message handled again after a crash (its offset not
    /// yet committed) dead-letters the same record or message again.
    var deadLetters = 0
    /// Of the dead letters, single records a source could not read (their pages went on).
    var deadRecords = 0
    /// Dead-letter messages read, redeliveries included.
    var deadLetterMessages = 0
    private var deadLettersSeen: Set<DeadLetterIdentity> = []

    /// What a dead letter is about: a record by its page and id, a message by where it was read.
    private enum DeadLetterIdentity: Hashable {
        case record(pageId: String?, recordId: String)
        case message(topic: String, partition: String, offset: String)
    }
    var indexRead = false
    /// Gaps an index worker found in its inputs (``MissingHistory``): it publishes nothing meanwhile.
    var missingHistory: [MissingHistory] = []

    /// A page request: the page is requested, by its crawl.
    mutating func add(request message: KafkaConsumerMessage) {
        guard let request = try? MessageCodec.decode(PageRequest.self, from: message) else { return }
        var state = pages[request.pageId] ?? PageState(pageId: request.pageId, stage: .requested)
        state.crawlId = request.crawlId
        state.page = request.page
        pages[request.pageId] = state
    }

    mutating func advance(_ pageIds: [String], to stage: Stage) {
        for pageId in pageIds { advance(pageId, to: stage) }
    }

    mutating func advance(_ pageId: String, to stage: Stage) {
        var state = pages[pageId] ?? PageState(pageId: pageId, stage: stage)
        state.stage = max(state.stage, stage)
        pages[pageId] = state
    }

    mutating func add(deadLetter message: KafkaConsumerMessage) {
        deadLetterMessages += 1
        let header = { (name: String) in message.headers.first { $0.name == name }?.stringValue }
        let recordId = header(DeadLetter.recordIdHeader)
        let identity =
            if let recordId { DeadLetterIdentity.record(pageId: message.keyString, recordId: recordId) } else {
                DeadLetterIdentity.message(
                    topic: header(DeadLetter.sourceTopicHeader) ?? message.topic,
                    partition: header(DeadLetter.sourcePartitionHeader) ?? "\(message.partition)",
                    offset: header(DeadLetter.sourceOffsetHeader) ?? "\(message.offset)")
            }
        guard deadLettersSeen.insert(identity).inserted else { return }
        deadLetters += 1
        // One unreadable record: its page went on.
        if recordId != nil {
            deadRecords += 1
            return
        }
        guard let pageId = message.keyString else { return }
        var state = pages[pageId] ?? PageState(pageId: pageId, stage: .requested)
        state.failure = (header(DeadLetter.workerHeader) ?? "?", header(DeadLetter.errorHeader) ?? "no reason given")
        pages[pageId] = state
    }

    /// A copy of a page request (`from: .requested`) or of a fetched page (`from: .fetched`)
    /// waiting on a retry topic; the latest state of a page wins.
    mutating func add(retry message: KafkaConsumerMessage, from stage: Stage) {
        guard let retry = RetryState(headers: message.headers), let pageId = message.keyString else { return }
        var state = pages[pageId] ?? PageState(pageId: pageId, stage: stage)
        if let request = try? MessageCodec.decode(PageRequest.self, from: message) {
            state.crawlId = request.crawlId
            state.page = request.page
        }
        if retry.attempts > state.retry?.attempts ?? 0 {
            state.retry = retry
            state.retryFrom = stage
        }
        pages[pageId] = state
    }

    /// Pages present in index.json, found from each crawl's source, query and page numbers.
    mutating func add(index: IndexManifest) {
        indexRead = true
        let indexed = index.crawls.flatMap { crawl in
            crawl.pagesIndexed.map { PageID.make(source: crawl.source, query: crawl.query, page: $0) }
        }
        advance(indexed, to: .indexed)
    }

    /// Pages whose request or page waits on a retry topic and that got no further meanwhile.
    private func retrying(_ all: [PageState]) -> [PageState] {
        all.filter { $0.retry != nil && $0.failure == nil && $0.stage == $0.retryFrom }
    }

    var text: String {
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
        lines.append("lag (messages not yet handled, per group and topic; per partition in brackets):")
        for lag in lags {
            let parts = lag.partitions.map { $0.map(String.init) ?? "-" }.joined(separator: " ")
            lines.append("  \(lag.group)\t\(lag.topic)\t\(lag.total)\t[\(parts)]")
        }
        return lines.joined(separator: "\n")
    }
}
