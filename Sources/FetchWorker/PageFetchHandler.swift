import ArtpipeRuntime
import Foundation
import HTTPFetching
import KafkaClient
import Logging
import Metrics
import PipelineContract

/// FetchWorker's handler: a `PageRequest` in, a `Page` (and any next page requests) out.
public struct PageFetchHandler: MessageHandler {
    let sources: [String: any CollectionSource]
    let redaction: SecretRedaction
    /// Records left out of their pages because they could not be read.
    let unreadableRecords = Counter(label: "records_unreadable")
    /// On a retry copy: the next page's request went out with the attempt that failed.
    public static let nextPublishedHeader = "artpipe-next-published"

    public init(sources: [any CollectionSource], redaction: SecretRedaction) {
        self.sources = Dictionary(sources.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.redaction = redaction
    }

    public func decode(_ message: KafkaConsumerMessage) throws -> PageRequest {
        try MessageCodec.decode(PageRequest.self, from: message)
    }

    public func handle(_ request: PageRequest, context: MessageContext) async throws -> [KafkaProducerRecord] {
        guard let source = sources[request.source] else {
            throw HandlerFailure.permanent(
                "unknown source '\(request.source)' (this worker serves \(sources.keys.sorted().joined(separator: ", ")))"
            )
        }
        let fetched: SourcePage
        do {
            fetched = try await source.fetch(request)
        } catch let error as HTTPFetchError where error.isPermanent {
            throw HandlerFailure.permanent(redaction.apply(error.description))
        } catch let error as HTTPFetchError {
            // The fetcher already retried in place; the page now waits on a retry topic.
            throw HandlerFailure.transient(redaction.apply(error.description), retryAfter: error.retryAfter)
        } catch let error as any RetryableSourceError {
            throw HandlerFailure.transient(redaction.apply(error.description))
        } catch let error as SourceFormatError {
            throw HandlerFailure.permanent(redaction.apply(error.description))
        }
        // The next page goes out once, even while this page is tried again.
        let nextPublished = context.message.headers.value(of: Self.nextPublishedHeader) == "true"
        let next =
            nextPublished ? [] : try fetched.next.map { try MessageCodec.record($0, topic: ArtpipeTopic.pageRequests) }
        if fetched.repeatedCursor {
            context.logger.warning(
                "the server's next cursor repeats one already followed: the crawl stops here",
                metadata: ["page.id": "\(request.pageId)"])
        }
        if let retry = fetched.retryLater {
            throw HandlerFailure.transient(
                redaction.apply(retry.reason), retryAfter: retry.retryAfter, outputs: next,
                retryHeaders: [KafkaHeader(Self.nextPublishedHeader, "true")])
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
        var records = try [MessageCodec.record(page, topic: ArtpipeTopic.pages)] + next
        if let mark = fetched.completedHarvest {
            records.append(try MessageCodec.record(mark, topic: ArtpipeTopic.harvests))
            context.logger.info(
                "harvest complete",
                metadata: ["page.id": "\(request.pageId)", "harvest.through": "\(mark.harvestedThrough)"])
        }
        return records
    }
}
