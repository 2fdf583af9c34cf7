import ArgumentParser
import ArtpipeSupport
import FetchWorker
import Foundation
import HTTPFetching
import Logging
import NIOPosix
import ObjectStorage
import ThumbWorker

/// `thumb-worker`'s own flags.
struct ThumbWorkerOptions: ParsableArguments {
    /// Thumbnails go to `thumbs/<size>/` there.
    @OptionGroup var output: OutputOptions

    @Option(help: "Thumbnail sizes, longest edge in pixels, comma-separated.")
    var sizes: String = "200,400"

    @Option(help: "JPEG and WebP quality, 1–100.")
    var quality: Int = 82

    @Option(
        help: """
            Formats each size is written in, comma-separated: jpeg, webp, or jpeg,webp (the gallery then \
            offers the WebP where the browser takes it, the JPEG elsewhere). A change makes thumbnails again.
            """)
    var formats: String?

    @Option(help: "The WebP's quality, 1–100, where it should differ from --quality.")
    var webpQuality: Int?

    @Flag(help: "Write WebP instead of JPEG (as --formats webp).")
    var webp = false

    /// `--formats`, or `--webp`'s.
    var formatSet: Set<ThumbnailFormat> { webp ? [.webp] : ThumbnailFormat.list(formats ?? "jpeg") ?? [.jpeg] }

    @Option(
        help:
            "How the image hosts can reach whoever runs this worker (mailto:… or a URL), sent in the User-Agent (env: ARTPIPE_CONTACT)."
    )
    var contact: String?

    @Option(help: "Images processed at once (default: the number of cores).")
    var imageConcurrency: Int?

    @Option(
        help: """
            Downloads at once from one image host, across every page this worker handles: the museum's \
            image server sees 840,000 downloads from a full harvest, and politeness is part of speed.
            """)
    var imageHostConcurrency: Int = 4

    @Option(help: "Largest image download, in MiB.")
    var maxImageMib: Int = 50

    @Option(
        help: """
            MiB of downloaded images held at once, however many partitions and images are under way \
            (one larger image waits until it can be alone).
            """)
    var downloadBudgetMib: Int = 256

    @Option(help: "Largest image accepted, in megapixels, read from its header before decoding.")
    var maxMegapixels: Int = 100

    @Option(help: "Seconds a whole image download may take.")
    var downloadTimeout: Double = 30

    @Option(help: "Another allowed image host (it and its subdomains); repeatable.")
    var allowHost: [String] = []

    @Flag(help: "Allow image hosts on loopback and private addresses (the demo's sample server).")
    var allowPrivateHosts = false

    @Option(
        help: """
            With --out s3://…: a thumbnail reused from an earlier run and written longer ago than this (30s, 10m, 2h) \
            is copied onto itself, which renews the time `artpipe prune` reads. Keep prune's --keep-recent longer \
            than this plus the time a page takes into the index.
            """)
    var touchAfter: String = "1h"

    init() {}

    var touchAfterDuration: Duration { Duration(text: touchAfter) ?? .seconds(3_600) }

    var sizeList: [Int] {
        sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    func validate() throws {
        let parsed = sizes.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) >= 16 && ($0 ?? 0) <= 4_096 }) else {
            throw ValidationError("--sizes must be a comma-separated list of sizes between 16 and 4096, got '\(sizes)'")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1–100") }
        if webp, formats != nil { throw ValidationError("--webp is --formats webp: give one of them") }
        if let webpQuality, !(1...100).contains(webpQuality) { throw ValidationError("--webp-quality must be 1–100") }
        if let formats, ThumbnailFormat.list(formats) == nil {
            throw ValidationError("--formats must be jpeg, webp or jpeg,webp, got '\(formats)'")
        }
        if downloadBudgetMib < 1 { throw ValidationError("--download-budget-mib must be at least 1") }
        if imageHostConcurrency < 1 { throw ValidationError("--image-host-concurrency must be at least 1") }
        if let imageConcurrency, imageConcurrency < 1 {
            throw ValidationError("--image-concurrency must be at least 1")
        }
        guard maxImageMib >= 1 else { throw ValidationError("--max-image-mib must be at least 1") }
        guard maxMegapixels >= 1 else { throw ValidationError("--max-megapixels must be at least 1") }
        guard downloadTimeout > 0 else { throw ValidationError("--download-timeout must be positive") }
        guard Duration(text: touchAfter) != nil else {
            throw ValidationError("--touch-after: '\(touchAfter)' is not a duration (write 30s, 10m, 2h or 1d)")
        }
    }

    /// Threads of the worker's blocking pool: one per image in libvips, and two for file
    /// writes, name look-ups and Kafka's one-shot calls.
    var blockingThreads: Int { (imageConcurrency ?? ProcessInfo.processInfo.activeProcessorCount) + 2 }

    /// The handler these flags describe.
    /// - Parameter maxRetryAfter: the longest wait a throttled image host may ask for before its
    ///   images fail at once: `--retry-for`, past which the page's retries would give up anyway.
    /// - Parameter output: the store ``output`` opened.
    func makeHandler(
        output: any OutputStore, threadPool: NIOThreadPool, maxRetryAfter: Duration, logger: Logger
    ) throws -> (PageThumbnailHandler, HTTPFetcher) {
        var configuration = Thumbnailer.Configuration()
        configuration.sizes = Array(Set(sizeList)).sorted()
        configuration.quality = quality
        configuration.formats = formatSet
        configuration.webpQuality = webpQuality
        configuration.maxPixels = maxMegapixels * 1_000_000
        if let imageConcurrency { configuration.concurrency = imageConcurrency }
        let thumbnailer: Thumbnailer
        do {
            thumbnailer = try Thumbnailer(configuration: configuration, threadPool: threadPool)
        } catch {
            throw ConfigurationError("cannot start libvips: \(error)")
        }
        var download = HTTPFetcherConfiguration()
        download.maxResponseBytes = maxImageMib << 20
        download.requestTimeout = .seconds(fromFlag: downloadTimeout)
        download.readTimeout = .seconds(fromFlag: min(downloadTimeout, 10))
        download.maxAttempts = 3
        download.maxRetryAfter = maxRetryAfter
        download.concurrencyPerHost = imageHostConcurrency
        download.userAgent = ArtpipeVersion.userAgent(
            contact: contact, environment: ProcessInfo.processInfo.environment)
        let downloader = HTTPFetcher(
            configuration: download, redaction: SecretRedaction(secrets: []), logger: logger,
            bodyBudget: downloadBudgetMib << 20)
        let policy = HostPolicy(
            allowedHosts: HostPolicy.imageHosts + allowHost, allowPrivateAddresses: allowPrivateHosts,
            threadPool: threadPool)
        let store = ThumbnailStore(output: output, configuration: configuration)
        if case let swept = store.removeStaleTemporaries(), swept > 0 {
            logger.info("removed temporary files of killed writes", metadata: ["files": "\(swept)"])
        }
        let handler = PageThumbnailHandler(
            thumbnailer: thumbnailer, store: store,
            downloader: downloader, policy: policy, sourcesNamingImageHosts: [OAIRepository.any.sourceName],
            imageConcurrency: configuration.concurrency * 2,
            threadPool: threadPool)
        return (handler, downloader)
    }
}
