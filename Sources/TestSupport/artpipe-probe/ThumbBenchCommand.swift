import ArgumentParser
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import NIOPosix
import SampleImages
import ThumbWorker

/// `artpipe-probe thumbs`: the thumbnail benchmark's two halves, and libvips on many threads.
struct ThumbBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbs",
        abstract:
            "Make a corpus of large JPEGs, thumbnail a folder of images, thumbnail side by side, or weigh WebP against JPEG.",
        subcommands: [MakeCorpus.self, Thumbnail.self, SideBySide.self, Formats.self])

    struct Formats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Thumbnail images as JPEG and as WebP at several qualities, one thread: print each one's bytes and \
                peak signal-to-noise ratio against a JPEG at quality 100, by size, and the seconds of JPEG alone \
                and of JPEG and WebP.
                """)

        @Option(help: "A folder of images (.jpg, .jpeg, .png, .webp, .tif); repeatable.") var input: [String] = []
        @Option(help: "Also this many of the sample collection's paintings, in its sizes.") var sample = 0
        @Option var sizes: [Int] = [200, 400]
        @Option(help: "The JPEG's quality, and the WebP's in the timed run.") var quality: Int = 82
        @Option(help: "The WebP's qualities weighed, comma-separated.") var webpQualities: String = "60,70,75,82"

        func run() async throws {
            var images: [[UInt8]] = []
            for folder in input {
                for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                where ["jpg", "jpeg", "png", "webp", "tif"].contains(
                    file.split(separator: ".").last?.lowercased() ?? "")
                {
                    images.append(
                        Array(try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(file))))
                }
            }
            for number in 0..<sample {
                let (width, height) = number % 3 == 0 ? (1200, 840) : (900, 1200)
                images.append(try SampleImage.painting(width: width, height: height, seed: 1 + number % 5 * 97))
            }
            let reference = try await Self.thumbnail(images, sizes: sizes, quality: 100, formats: [.jpeg]).made
            var runs: [(name: String, quality: Int, format: ThumbnailFormat)] = [("JPEG", quality, .jpeg)]
            for webp in webpQualities.split(separator: ",").compactMap({ Int($0) }) {
                runs.append(("WebP", webp, .webp))
            }
            print("artpipe: \(images.count) images; peak signal-to-noise against JPEG at quality 100")
            // The ratios are computed on a pool's thread, as every libvips call here is.
            try await NIOThreadPool.withPool(threads: 1) { pool in
                let judge = try Thumbnailer(configuration: .init(), threadPool: pool)
                for run in runs {
                    let made = try await Self.thumbnail(
                        images, sizes: sizes, quality: run.quality, formats: [run.format]
                    )
                    .made
                    for size in sizes.sorted() {
                        var (bytes, ratios) = (0, [Double]())
                        for (image, thumbnails) in made.enumerated() {
                            for thumbnail in thumbnails where thumbnail.size == size {
                                bytes += thumbnail.data.count
                                let against = reference[image].first { $0.size == size }?.data ?? []
                                if let ratio = try await judge.peakSignalToNoise(of: thumbnail.data, against: against) {
                                    ratios.append(ratio)
                                }
                            }
                        }
                        print(
                            "artpipe: \(run.name) quality \(run.quality), size \(size): \(bytes) bytes, "
                                + String(format: "%.2f dB", ratios.reduce(0, +) / Double(max(ratios.count, 1))))
                    }
                }
            }
            let jpegSeconds = try await Self.thumbnail(images, sizes: sizes, quality: quality, formats: [.jpeg]).seconds
            let bothSeconds = try await Self.thumbnail(images, sizes: sizes, quality: quality, formats: [.jpeg, .webp])
                .seconds
            print(
                "artpipe: seconds on one thread: JPEG alone " + String(format: "%.2f", jpegSeconds)
                    + ", JPEG and WebP " + String(format: "%.2f", bothSeconds))
        }

        /// What `images` give at each size in `formats` at `quality`, in their order, and the
        /// seconds they took.
        static func thumbnail(_ images: [[UInt8]], sizes: [Int], quality: Int, formats: Set<ThumbnailFormat>)
            async throws -> (
                made: [[Thumbnailer.Thumbnail]], seconds: Double
            )
        {
            var configuration = Thumbnailer.Configuration()
            (configuration.sizes, configuration.quality, configuration.formats) = (sizes, quality, formats)
            configuration.concurrency = 1
            return try await NIOThreadPool.withPool(threads: 1) { threadPool in
                let thumbnailer = try Thumbnailer(configuration: configuration, threadPool: threadPool)
                var made: [[Thumbnailer.Thumbnail]] = []
                let start = ContinuousClock.now
                for image in images { made.append(try await thumbnailer.thumbnails(of: image).sizes) }
                let elapsed = ContinuousClock.now - start
                return (made, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
        }
    }

    struct MakeCorpus: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "make-corpus", abstract: "Write COUNT noisy JPEGs, half 6000x4000 and half 4000x5000.")

        @Option var out: String
        @Option var count: Int = 24

        func run() async throws {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            for index in 0..<count {
                let (width, height) = index % 2 == 0 ? (6000, 4000) : (4000, 5000)
                let image = try SampleImage.noisy(width: width, height: height, seed: index + 1, quality: 90)
                try Data(image).write(
                    to: URL(fileURLWithPath: out).appendingPathComponent(String(format: "img%03d.jpg", index)))
            }
            print("wrote \(count) JPEGs to \(out)")
        }
    }

    struct Thumbnail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Thumbnail every file of a folder in this process; print images per second.")

        @Option var input: String
        @Option var out: String
        @Option var concurrency: Int = 1
        @Option var size: Int = 400
        @Option var quality: Int = 82

        func run() async throws {
            var configuration = Thumbnailer.Configuration()
            configuration.sizes = [size]
            configuration.quality = quality
            configuration.concurrency = concurrency
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let files = try FileManager.default.contentsOfDirectory(atPath: input).filter { $0.hasSuffix(".jpg") }
                .sorted()
            let (input, out, concurrency) = (input, out, concurrency)
            let seconds = try await NIOThreadPool.withPool(threads: concurrency) { threadPool in
                let thumbnailer = try Thumbnailer(configuration: configuration, threadPool: threadPool)
                let start = ContinuousClock.now
                _ = try await files.concurrentMap(limit: concurrency) { file in
                    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: input).appendingPathComponent(file)))
                    let thumbnail = try await thumbnailer.thumbnails(of: bytes).sizes[0]
                    try Data(thumbnail.data).write(to: URL(fileURLWithPath: out).appendingPathComponent(file))
                }
                return start.duration(to: .now).seconds
            }
            print("artpipe: \(files.count) images in \(String(format: "%.2f", seconds)) s")
        }
    }

    struct SideBySide: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "side-by-side",
            abstract: "Thumbnail small images on THREADS threads at once for SECONDS; print how many were made.")

        @Option var threads: Int = 4
        @Option var seconds: Int = 10

        func run() async throws {
            var configuration = Thumbnailer.Configuration()
            // Two sizes: both of libvips' ways of building a resize, from a buffer and from pixels.
            configuration.sizes = [40, 16]
            configuration.concurrency = threads
            // Small images: libvips builds and drops a pipeline many times a second.
            let images = try (0..<8).map { try SampleImage.noisy(width: 96 + 8 * $0, height: 64, seed: $0 + 1) }
            let deadline = ContinuousClock.now + .seconds(seconds)
            let made = try await NIOThreadPool.withPool(threads: threads) { threadPool in
                let thumbnailer = try Thumbnailer(configuration: configuration, threadPool: threadPool)
                return try await Array(0..<threads).concurrentMap(limit: threads) { lane in
                    var total = 0
                    var next = lane
                    while ContinuousClock.now < deadline {
                        total += try await thumbnailer.thumbnails(of: images[next % images.count]).sizes.count
                        next += 1
                    }
                    return total
                }.reduce(0, +)
            }
            print("artpipe: \(made) thumbnails on \(threads) threads in \(seconds) s")
        }
    }
}
