import ArtpipeRuntime
import Foundation
import HTTPFetching
import KafkaClient
import Logging
import Metrics
import PipelineContract

/// FetchWorker's handler: a `PageRequest` in, a `Page` (and any next page requests) out.
package struct PageFetchHandler: MessageHandler {
    let sources: [String: any CollectionSource]
    let redaction: SecretRedaction
    /// Records left out of their pages because they could not be read.
    let unreadableRecords = Counter(label: "records_unreadable")
    /// Said of a failed cursor-paged page: the crawl's later pages are asked for only by it.
    package static let chainNote = " (a cursor chain: the crawl's later pages are requested only once this page passes)"
    /// On a retry copy: the next page's request went out with the attempt that failed.
    static let nextPublishedHeader = "artpipe-next-published"

    /// Which next-page requests are already published; nil publishes every one it is handed
    /// (a handler run outside a worker, in a benchmark).
    let chains: CursorChains?
    /// Said once per source, when its first request comes: the keys it lacks.
    let keyWarnings: MissingKeyWarnings?

    package init(
        sources: [any CollectionSource], redaction: SecretRedaction, chains: CursorChains?,
        keyWarnings: MissingKeyWarnings? = nil
    ) {
        self.sources = Dictionary(sources.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.redaction = redaction
        self.chains = chains
        self.keyWarnings = keyWarnings
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> PageRequest {
        try MessageCodec.decode(PageRequest.self, from: message)
    }

    package func handle(_ request: PageRequest, context: MessageContext) async throws -> [KafkaProducerRecord] {
        guard let source = sources[request.source] else {
            throw HandlerFailure.forGood(
                "unknown source '\(request.source)' (this worker serves \(sources.keys.sorted().joined(separator: ", ")))"
            )
        }
        if let warning = keyWarnings?.warning(serving: source.name) {
            context.logger.warning("\(warning)", metadata: ["source": "\(source.name)"])
        }
        let step = try chainStep(of: request, context.message)
        // A retry copy keeps naming its chain, so the next page goes where the chain lives.
        let chainHeaders = step.map { [KafkaHeader(ChainStep.header, $0.description)] } ?? []
        if source.isCursorPaged, let chains, let lease = context.lease,
            context.message.topic == ArtpipeTopic.pageRequests
        {
            do {
                try await chains.load(for: context.message, lease: lease)
            } catch {
                throw HandlerFailure.forNow(
                    "cannot read \(ArtpipeTopic.pageRequests) to see what is published: \(error)",
                    retryHeaders: chainHeaders)
            }
        }
        let fetched: SourcePage
        do {
            // What does not fit one message goes to the dead letters, a record at a time.
            fetched = PageBudget().fit(try await source.fetch(request))
        } catch {
            // The error keeps its own class; only its words are redacted, and a retry copy keeps its chain.
            var failure = HandlerFailure(error, reason: redaction.apply("\(error)"), retryHeaders: chainHeaders)
            // Said whichever way it ends: dead-lettered now, or after --retry-for.
            if step != nil, source.isCursorPaged { failure.reason += Self.chainNote }
            throw failure
        }
        // The next page goes out once, even while this page is tried again.
        let nextPublished = context.message.headers.value(of: Self.nextPublishedHeader) == "true"
        let next = nextPublished ? [] : try successors(fetched.next, of: step, context: context)
        if fetched.repeatedCursor {
            context.logger.warning(
                "the server's next cursor repeats one already followed: the crawl stops here",
                metadata: ["page.id": "\(request.pageId)"])
        }
        if let retry = fetched.retryLater {
            throw HandlerFailure.forNow(
                redaction.apply(retry.reason), retryAfter: retry.retryAfter, outputs: next,
                retryHeaders: chainHeaders + [KafkaHeader(Self.nextPublishedHeader, "true")])
        }
        let page = Page(
            request: request, total: fetched.total, artworks: fetched.artworks,
            deletions: source.isVersioned ? fetched.deletions : nil,
            unreadable: fetched.unreadable.isEmpty
                ? nil
                : fetched.unreadable.map { UnreadableRecord(recordId: $0.recordId, reason: redaction.apply($0.reason)) }
        )
        if !fetched.unreadable.isEmpty {
            unreadableRecords.increment(by: fetched.unreadable.count)
            context.logger.warning(
                "records on the page could not be read",
                metadata: [
                    "page.id": "\(request.pageId)", "records.unreadable": "\(fetched.unreadable.count)",
                    "reason": "\(page.unreadable?.first?.reason ?? "")",
                ])
        }
        context.logger.debug(
            "page fetched", metadata: ["page.id": "\(request.pageId)", "artworks": "\(page.artworks.count)"])
        // One record that cannot be read is one dead letter; its page goes on without it.
        let letters = fetched.unreadable.map { unreadable in
            var redacted = unreadable
            redacted.reason = redaction.apply(unreadable.reason)
            return DeadLetter.record(ofRecord: redacted, page: context.message, worker: "fetch")
        }
        var records = try [MessageCodec.record(page, topic: ArtpipeTopic.pages)] + next + letters
        if let mark = fetched.completedHarvest {
            records.append(try MessageCodec.record(mark, topic: ArtpipeTopic.harvests))
            context.logger.info(
                "harvest complete",
                metadata: ["page.id": "\(request.pageId)", "harvest.through": "\(mark.harvestedThrough)"])
        }
        return records
    }

    /// The request's place in its chain; a header that does not read as one is poison.
    private func chainStep(of request: PageRequest, _ message: KafkaConsumerMessage) throws -> ChainStep? {
        guard let text = message.headers.value(of: ChainStep.header) else {
            return ChainStep.of(message, page: request.page)
        }
        guard let step = ChainStep(text: text), step.page == request.page else {
            throw HandlerFailure.forGood(
                "header \(ChainStep.header) '\(text)' is not <partition>@<offset>/<page> for page \(request.page)")
        }
        return step
    }

    /// The records of the next requests not yet published, each to its chain's partition with its step.
    private func successors(_ requests: [PageRequest], of step: ChainStep?, context: MessageContext) throws
        -> [KafkaProducerRecord]
    {
        guard let step else {
            // A retry copy from before chains were named: no partition to keep it in.
            return try requests.map { try MessageCodec.record($0, topic: ArtpipeTopic.pageRequests) }
        }
        var wanted = requests.map { step.at(page: $0.page) }
        if let chains, context.lease != nil, context.message.topic == ArtpipeTopic.pageRequests {
            let claimed = Set(chains.claim(wanted, in: step.partition))
            if claimed.count < wanted.count {
                context.logger.info(
                    "the next page is already requested: the chain goes on from there",
                    metadata: ["page.id": "\(context.message.keyString ?? "")", "chain.step": "\(step)"])
            }
            wanted = wanted.filter(claimed.contains)
        }
        return try requests.filter { wanted.contains(step.at(page: $0.page)) }.map { next in
            var record = try MessageCodec.record(next, topic: ArtpipeTopic.pageRequests)
            record.partition = step.partition
            record.headers.append(KafkaHeader(ChainStep.header, step.at(page: next.page).description))
            return record
        }
    }
}
