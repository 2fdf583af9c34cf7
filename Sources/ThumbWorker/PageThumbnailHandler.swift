import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import HTTPFetching
import KafkaClient
import Logging
import NIOPosix
import PipelineContract

/// ThumbWorker's handler: a `Page` in, one `PageThumbnails` out.
///
/// One artwork failing never fails its page: it gets `failed` and a short reason. Thumbnails
/// already made from the same image URL and settings are reused: nothing is downloaded or
/// decoded again, so a replayed page costs a few file checks.
public struct PageThumbnailHandler: MessageHandler {
    let thumbnailer: Thumbnailer
    let store: ThumbnailStore
    let downloader: HTTPFetcher
    let policy: HostPolicy
    let imageConcurrency: Int
    /// File reads and writes, which block.
    let files: NIOThreadPool

    public init(
        thumbnailer: Thumbnailer, store: ThumbnailStore, downloader: HTTPFetcher, policy: HostPolicy,
        imageConcurrency: Int, threadPool: NIOThreadPool
    ) {
        self.thumbnailer = thumbnailer
        self.store = store
        self.downloader = downloader
        self.policy = policy
        self.imageConcurrency = imageConcurrency
        self.files = threadPool
    }

    public func decode(_ message: KafkaConsumerMessage) throws -> Page {
        try MessageCodec.decode(Page.self, from: message)
    }

    public func handle(_ page: Page, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let items = try await page.artworks.concurrentMap(limit: imageConcurrency) { artwork in
            try await self.item(for: artwork)
        }
        let failed = items.filter { $0.status == .failed }
        if !failed.isEmpty {
            context.logger.info(
                "page thumbnailed with failures",
                metadata: ["page.id": "\(page.pageId)", "failed": "\(failed.count)", "items": "\(items.count)"])
        }
        return [
            try MessageCodec.record(PageThumbnails(pageId: page.pageId, items: items), topic: ArtpipeTopic.thumbnails)
        ]
    }

    /// The thumbnails of one artwork. Throws only when files cannot be written (the page is
    /// then retried); every problem with the image itself becomes a `failed` item.
    func item(for artwork: Artwork) async throws -> PageThumbnails.Item {
        let objectNumber = artwork.objectNumber
        guard let imageURL = artwork.imageURL else {
            return PageThumbnails.Item(objectNumber: objectNumber, status: .noImage)
        }
        let store = self.store
        if let earlier = try await files.runIfActive({ store.existing(objectNumber: objectNumber, imageURL: imageURL) })
        {
            return earlier
        }
        guard let url = URL(string: imageURL) else {
            return PageThumbnails.Item(objectNumber: objectNumber, status: .failed, reason: "invalid image URL")
        }
        let download: HTTPFetchResponse
        do {
            let policy = self.policy
            download = try await downloader.get(url, accept: "image/*", check: { try await policy.check($0) })
        } catch let error as HTTPFetchError {
            return try await failed(objectNumber, imageURL, reason: Self.reason(error), lasting: error.isPermanent)
        }
        let thumbnails: [Thumbnailer.Thumbnail]
        do {
            // The body counts against the download budget until libvips is done with it.
            defer { downloader.release(download) }
            thumbnails = try await thumbnailer.thumbnails(of: download.body)
        } catch {
            // The same bytes fail the same way.
            return try await failed(objectNumber, imageURL, reason: error.description, lasting: true)
        }
        let written = try await files.runIfActive {
            try store.write(objectNumber: objectNumber, imageURL: imageURL, thumbnails: thumbnails)
        }
        return PageThumbnails.Item(objectNumber: objectNumber, status: .ok, files: written)
    }

    private func failed(_ objectNumber: String, _ imageURL: String, reason: String, lasting: Bool) async throws
        -> PageThumbnails.Item
    {
        if lasting {
            let store = self.store
            try await files.runIfActive {
                try store.recordFailure(objectNumber: objectNumber, imageURL: imageURL, reason: reason)
            }
        }
        return PageThumbnails.Item(objectNumber: objectNumber, status: .failed, reason: reason)
    }

    /// A short reason, without the URL (the item already names the work).
    static func reason(_ error: HTTPFetchError) -> String {
        switch error {
        case .rejected(let status, _, _): "HTTP \(status)"
        case .exhausted(let attempts, _, let lastFailure): "\(lastFailure) (after \(attempts) attempts)"
        case .tooLarge(let limit, _): "too large: over \(limit >> 20) MiB"
        case .invalidURL: "invalid image URL"
        case .refused(_, let reason): "refused: \(reason)"
        case .tooManyRedirects(let limit, _): "more than \(limit) redirects"
        case .throttled(_, _, let reason): "\(reason), asked to wait"
        case .waitTooLong(_, let retryAfter, _): "asked to wait \(retryAfter.wholeUnitsDescription)"
        }
    }
}
