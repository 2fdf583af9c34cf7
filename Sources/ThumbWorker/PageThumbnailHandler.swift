import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import HTTPFetching
import KafkaClient
import Logging
import Metrics
import NIOPosix
import PipelineContract

/// ThumbWorker's handler: a `Page` in, one `PageThumbnails` out.
///
/// One artwork failing never fails its page: it gets `failed` and a short reason. An image
/// that failed for the moment (its host throttles, times out, answers 5xx or cannot be looked
/// up now) sends the whole page to the retry topics instead, while they still take it; only
/// then does it become `failed`. Thumbnails
/// already made from the same image URL and settings are reused: nothing is downloaded or
/// decoded again, so a replayed page costs a few file checks.
package struct PageThumbnailHandler: MessageHandler {
    let thumbnailer: Thumbnailer
    let store: ThumbnailStore
    let downloader: HTTPFetcher
    /// The image hosts of the sources that have fixed ones.
    let policy: HostPolicy
    /// Pages of these sources (any OAI-PMH repository) name their providers' own image hosts:
    /// any host passes for them, at public addresses only.
    let sourcesNamingImageHosts: Set<String>
    let imageConcurrency: Int
    /// File reads and writes, which block.
    let files: NIOThreadPool
    /// Images decoded into thumbnails, and their bytes: the stage's own speed, next to its CPU time.
    let imagesDecoded = Counter(label: "images_decoded", dimensions: [("worker", "thumb")])
    let imageBytesDecoded = Counter(label: "image_bytes_decoded", dimensions: [("worker", "thumb")])
    let fenceWatch = PruneFenceWatch()

    package init(
        thumbnailer: Thumbnailer, store: ThumbnailStore, downloader: HTTPFetcher, policy: HostPolicy,
        sourcesNamingImageHosts: Set<String> = [], imageConcurrency: Int, threadPool: NIOThreadPool
    ) {
        self.thumbnailer = thumbnailer
        self.store = store
        self.downloader = downloader
        self.policy = policy
        self.sourcesNamingImageHosts = sourcesNamingImageHosts
        self.imageConcurrency = imageConcurrency
        self.files = threadPool
    }

    package func decode(_ message: KafkaConsumerMessage) throws -> Page {
        try MessageCodec.decode(Page.self, from: message)
    }

    package func handle(_ page: Page, context: MessageContext) async throws -> [KafkaProducerRecord] {
        let store = self.store
        let fence = try await files.runIfActive { try store.pruneFence() }
        if let fence, fenceWatch.holds(fence) {
            throw HandlerFailure.forNow("a prune of the bucket is deleting thumbnails; the page waits until it ends")
        }
        var policy = self.policy
        policy.allowsAnyHost = sourcesNamingImageHosts.contains(page.source)
        let attempts = try await page.artworks.concurrentMap(limit: imageConcurrency) { [policy] artwork in
            try await self.attempt(artwork, policy: policy)
        }
        // A prune that began meanwhile may have checked this page's files before they were
        // written or marked: the page is made again after it (PruneFence).
        if let fence, try await files.runIfActive({ try store.pruneFence() }) != fence {
            throw HandlerFailure.forNow("a prune of the bucket began while the page was handled; it is tried again")
        }
        let forNow = attempts.compactMap(\.failedForNow)
        if let first = forNow.first {
            let retryAfter = forNow.compactMap(\.retryAfter).max()
            // Nothing of the page goes out yet: the next attempt reuses what this one made and
            // tries only these images again.
            if context.retriesFailure(waiting: retryAfter) {
                throw HandlerFailure.forNow(
                    "\(forNow.count) of \(attempts.count) images failed for the moment, such as "
                        + "\(first.item.objectNumber): \(first.item.reason ?? "-")",
                    retryAfter: retryAfter)
            }
        }
        let items = zip(attempts, page.artworks).map { attempt, artwork in
            var item = attempt.item
            (item.imageURL, item.recordId) = (artwork.imageURL, artwork.recordId)
            return item
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
        try await attempt(artwork).item
    }

    /// One artwork's outcome, saying whether its failure may pass (a throttled or unreachable
    /// host, a timeout) so the page is worth trying again.
    func attempt(_ artwork: Artwork, policy: HostPolicy? = nil) async throws -> ThumbnailAttempt {
        let objectNumber = artwork.objectNumber
        guard let imageURL = artwork.imageURL else {
            return .settled(PageThumbnails.Item(objectNumber: objectNumber, status: .noImage))
        }
        let store = self.store
        if let earlier = try await files.runIfActive({
            try store.existing(objectNumber: objectNumber, imageURL: imageURL)
        }) {
            return .settled(await coloured(earlier, imageURL: imageURL))
        }
        guard let url = URL(string: imageURL) else {
            return .settled(
                PageThumbnails.Item(objectNumber: objectNumber, status: .failed, reason: "invalid image URL"))
        }
        let download: HTTPFetchResponse
        do {
            let policy = policy ?? self.policy
            download = try await downloader.get(url, accept: "image/*", check: { try await policy.check($0) })
        } catch let error as HTTPFetchError {
            let item = PageThumbnails.Item(objectNumber: objectNumber, status: .failed, reason: Self.reason(error))
            if case .forNow(let retryAfter) = error.failureClass {
                return .failedForNow(item, retryAfter: retryAfter)
            }
            // A wait longer than anything here waits is no lasting answer of the image's.
            if case .waitTooLong = error { return .settled(item) }
            try await recordFailure(item, imageURL)
            return .settled(item)
        }
        let thumbnails: Thumbnailer.Thumbnails
        do {
            // The body counts against the download budget until libvips is done with it.
            defer { downloader.release(download) }
            thumbnails = try await thumbnailer.thumbnails(of: download.body)
            imagesDecoded.increment()
            imageBytesDecoded.increment(by: download.body.count)
        } catch {
            // The same bytes fail the same way.
            let item = PageThumbnails.Item(objectNumber: objectNumber, status: .failed, reason: error.description)
            try await recordFailure(item, imageURL)
            return .settled(item)
        }
        return .settled(
            try await files.runIfActive {
                try store.write(objectNumber: objectNumber, imageURL: imageURL, thumbnails: thumbnails)
            })
    }

    /// `item`, reused from a manifest an earlier build wrote without a colour, with the colour of
    /// its largest file (a JPEG before a WebP of that size, as ``Thumbnailer`` takes it), which
    /// its manifest then records; as it is when that file cannot be read or is not the one the
    /// manifest names. A colour is a nicety: nothing here fails the page.
    private func coloured(_ item: PageThumbnails.Item, imageURL: String) async -> PageThumbnails.Item {
        func rank(_ file: PageThumbnails.File) -> (Int, Int) { (file.size, file.path.hasSuffix(".webp") ? 0 : 1) }
        guard item.status == .ok, item.colour == nil, let largest = item.files.max(by: { rank($0) < rank($1) })
        else { return item }
        let store = self.store
        guard let bytes = try? await files.runIfActive({ try store.read(largest) }),
            let colour = await thumbnailer.colour(ofThumbnail: bytes)
        else { return item }
        // Not recorded, it is read from the file again at the next reuse.
        _ = try? await files.runIfActive { try store.record(colour: colour, of: item, imageURL: imageURL) }
        var coloured = item
        coloured.colour = colour
        return coloured
    }

    /// Remembers a failure that another try cannot change, so a replay does not download again.
    private func recordFailure(_ item: PageThumbnails.Item, _ imageURL: String) async throws {
        let store = self.store
        try await files.runIfActive {
            try store.recordFailure(objectNumber: item.objectNumber, imageURL: imageURL, reason: item.reason ?? "")
        }
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
