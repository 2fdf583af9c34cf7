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
        abstract: "Make a corpus of large JPEGs, thumbnail a folder of images, or thumbnail side by side.",
        subcommands: [MakeCorpus.self, Thumbnail.self, SideBySide.self])

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
                    let thumbnail = try await thumbnailer.thumbnails(of: bytes)[0]
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
                        total += try await thumbnailer.thumbnails(of: images[next % images.count]).count
                        next += 1
                    }
                    return total
                }.reduce(0, +)
            }
            print("artpipe: \(made) thumbnails on \(threads) threads in \(seconds) s")
        }
    }
}
