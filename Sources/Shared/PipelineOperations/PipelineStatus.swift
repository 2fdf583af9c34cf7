import Foundation
import IndexWorker
import KafkaClient
import PipelineContract

/// Where each page stands, from the topics (and the index, when there is one): what
/// `artpipe status` reads (``read(client:out:timeout:logger:)``) and prints (``text``).
package struct PipelineStatus: Sendable {
    package enum Stage: Int, Comparable, CustomStringConvertible, Sendable {
        case requested, fetched, thumbnailed, indexed

        package static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }

        package var description: String {
            switch self {
            case .requested: "requested"
            case .fetched: "fetched"
            case .thumbnailed: "thumbnailed"
            case .indexed: "indexed"
            }
        }
    }

    package struct PageState: Sendable {
        package let pageId: String
        package var crawlId: String?
        package var page: Int?
        package var stage: Stage
        /// Set when a worker dead-lettered a message of this page.
        package var failure: (worker: String, reason: String)?
        /// Set while a copy of its request (or of the fetched page) waits on a retry topic.
        package var retry: RetryState?
        /// The stage the retried copy is the input of: `requested` for FetchWorker, `fetched` for ThumbWorker.
        package var retryFrom: Stage = .requested
    }

    package struct Lag: Sendable {
        package let group: String
        package let topic: String
        /// Per partition, in partition order; nil where the group has no committed offset.
        package let partitions: [Int64?]
        package var total: Int64 { partitions.map { $0 ?? 0 }.reduce(0, +) }

        package init(group: String, topic: String, partitions: [Int64?]) {
            (self.group, self.topic, self.partitions) = (group, topic, partitions)
        }
    }

    package var pages: [String: PageState] = [:]
    package var lags: [Lag] = []
    /// What the workers asked (`--workers`) say of themselves; empty when none were asked.
    package var workers: [WorkerHealthReport] = []
    /// Dead letters, each counted once: a message handled again after a crash (its offset not
    /// yet committed) dead-letters the same record or message again.
    package private(set) var deadLetters = 0
    /// Of the dead letters, single records a source could not read (their pages went on).
    package private(set) var deadRecords = 0
    /// The first ``listedDeadRecords`` of those records, by page and record id, with the reason.
    package private(set) var deadRecordList: [DeadRecord] = []
    /// How many unreadable records `status` names one by one.
    package static let listedDeadRecords = 50

    /// One record a source could not read: its page, its id at the source, why.
    package struct DeadRecord: Sendable, Equatable {
        package var pageId: String
        package var recordId: String
        package var reason: String
    }
    /// Dead-letter messages read, redeliveries included.
    package private(set) var deadLetterMessages = 0
    private var deadLettersSeen: Set<DeadLetterIdentity> = []

    /// What a dead letter is about: a record by its page and id, a message by where it was read.
    private enum DeadLetterIdentity: Hashable {
        case record(pageId: String?, recordId: String)
        case message(topic: String, partition: String, offset: String)
    }
    package private(set) var indexRead = false
    /// Gaps an index worker found in its inputs (``MissingHistory``): it publishes nothing meanwhile.
    package var missingHistory: [MissingHistory] = []

    package init() {}

    /// A page request: the page is requested, by its crawl.
    package mutating func add(request message: KafkaConsumerMessage) {
        guard let request = try? MessageCodec.decode(PageRequest.self, from: message) else { return }
        var state = pages[request.pageId] ?? PageState(pageId: request.pageId, stage: .requested)
        state.crawlId = request.crawlId
        state.page = request.page
        pages[request.pageId] = state
    }

    package mutating func advance(_ pageIds: [String], to stage: Stage) {
        for pageId in pageIds { advance(pageId, to: stage) }
    }

    package mutating func advance(_ pageId: String, to stage: Stage) {
        var state = pages[pageId] ?? PageState(pageId: pageId, stage: stage)
        state.stage = max(state.stage, stage)
        pages[pageId] = state
    }

    package mutating func add(deadLetter message: KafkaConsumerMessage) {
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
        if let recordId {
            deadRecords += 1
            if deadRecordList.count < Self.listedDeadRecords {
                deadRecordList.append(
                    DeadRecord(
                        pageId: message.keyString ?? "?", recordId: recordId,
                        reason: header(DeadLetter.errorHeader) ?? "no reason given"))
            }
            return
        }
        guard let pageId = message.keyString else { return }
        var state = pages[pageId] ?? PageState(pageId: pageId, stage: .requested)
        state.failure = (header(DeadLetter.workerHeader) ?? "?", header(DeadLetter.errorHeader) ?? "no reason given")
        pages[pageId] = state
    }

    /// A copy of a page request (`from: .requested`) or of a fetched page (`from: .fetched`)
    /// waiting on a retry topic; the latest state of a page wins.
    package mutating func add(retry message: KafkaConsumerMessage, from stage: Stage) {
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
    package mutating func add(index: IndexManifest) {
        indexRead = true
        let indexed = index.crawls.flatMap { crawl in
            crawl.pagesIndexed.map { PageID.make(source: crawl.source, query: crawl.query, page: $0) }
        }
        advance(indexed, to: .indexed)
    }
}
