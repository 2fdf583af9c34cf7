import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import SampleImages
import Testing
import ThumbWorker

@Suite("Thumbnailer on real and hostile images")
struct ThumbnailerTests {
    let thumbnailer: Thumbnailer

    init() throws {
        var configuration = Thumbnailer.Configuration()
        configuration.sizes = [200, 400]
        configuration.concurrency = 2
        thumbnailer = try Thumbnailer(configuration: configuration, threadPool: .singleton)
    }

    @Test(
        "thumbnails keep the aspect ratio, longest edge at each size",
        arguments: [(".jpg", 3000, 2000), (".png", 800, 1200), (".webp", 1000, 1000), (".tif", 640, 480)])
    func formats(format: String, width: Int, height: Int) async throws {
        let image = try SampleImage.noisy(width: width, height: height, seed: 7, format: format)
        let made = try await thumbnailer.thumbnails(of: image)
        #expect(made.sizes.map(\.size) == [400, 200])
        // The sample's noise has a mean of 128 in each band, scaled by (1, 0.8, 0.6) and offset
        // by the seed's (7, 49, 27): the placeholder is the mean of what the thumbnail shows.
        let colour = try #require(made.colour)
        let channels = stride(from: 1, to: 7, by: 2).map {
            Int(colour.dropFirst($0).prefix(2), radix: 16) ?? -1
        }
        #expect(colour.count == 7 && colour.first == "#")
        for (channel, expected) in zip(channels, [135.0, 151.4, 103.8]) {
            #expect(abs(Double(channel) - expected) <= 6, "\(colour)")
        }
        for thumbnail in made.sizes {
            #expect(max(thumbnail.width, thumbnail.height) == thumbnail.size)
            let expectedShort = Double(min(width, height)) * Double(thumbnail.size) / Double(max(width, height))
            #expect(abs(Double(min(thumbnail.width, thumbnail.height)) - expectedShort) <= 1)
            let header = try Thumbnailer.header(of: thumbnail.data)
            #expect(header.format == "jpeg")
            #expect(header.width == thumbnail.width && header.height == thumbnail.height)
        }
    }

    @Test("vector (SIMD) paths are on, as in vipsthumbnail, unless VIPS_NOVECTOR turns them off")
    func vectorPaths() {
        #expect(Thumbnailer.vectorPathsEnabled == (ProcessInfo.processInfo.environment["VIPS_NOVECTOR"] == nil))
    }

    /// Before libvips 8.15 the vector paths are liborc's, generated when a resize is built and
    /// freed when it is dropped; liborc before 0.4.34 (Debian bookworm's 0.4.33) did neither
    /// under a lock. Without the shim's lock this child process crashed in 5 of 12 runs (12 s or 10 s).
    @Test(
        "images thumbnailed side by side on four threads with vector paths on: the process survives",
        .timeLimit(.minutes(1)))
    func sideBySide() async throws {
        let probe = try ChildProcess(
            "artpipe-probe", ["thumbs", "side-by-side", "--threads", "4", "--seconds", "12"])
        let status = try await probe.waitForExit(timeout: .seconds(50))
        #expect(status == 0, "exit \(status): \(probe.stderr)")
        #expect(probe.stdout.contains(" thumbnails on 4 threads"), "\(probe.stdout)")
    }

    @Test("both formats: each size as a JPEG and a WebP of the same pixels, JPEG first; the colour is the JPEG's")
    func jpegAndWebP() async throws {
        var configuration = Thumbnailer.Configuration()
        (configuration.sizes, configuration.formats) = ([200, 400], [.webp, .jpeg])
        let image = try SampleImage.noisy(width: 1200, height: 800, seed: 9)
        let made = try await Thumbnailer(configuration: configuration, threadPool: .singleton).thumbnails(of: image)
        #expect(made.sizes.map(\.size) == [400, 400, 200, 200])
        #expect(made.sizes.map(\.format) == [.jpeg, .webp, .jpeg, .webp])
        for thumbnail in made.sizes {
            let header = try Thumbnailer.header(of: thumbnail.data)
            #expect(header.format == thumbnail.format.rawValue)
            #expect(
                header.width == thumbnail.width && header.height == thumbnail.height
                    && thumbnail.width == thumbnail.size)
        }
        let jpegOnly = try await thumbnailer.thumbnails(of: image)
        #expect(made.colour != nil && made.colour == jpegOnly.colour)
        #expect(await thumbnailer.colour(ofThumbnail: made.sizes[0].data) == made.colour)
        #expect(await thumbnailer.colour(ofThumbnail: Array("<svg/>".utf8)) == nil)
    }

    @Test("--formats names jpeg, webp or both, in any case, and nothing else")
    func formatLists() {
        #expect(ThumbnailFormat.list("jpeg") == [.jpeg] && ThumbnailFormat.list("WebP") == [.webp])
        #expect(
            ThumbnailFormat.list("jpeg, webp") == [.jpeg, .webp]
                && ThumbnailFormat.list("jpg,webp,jpeg") == [.jpeg, .webp])
        for refused in ["", "png", "jpeg,", "jpeg,,webp", "avif,webp"] {
            #expect(ThumbnailFormat.list(refused) == nil, "\(refused)")
        }
    }

    @Test("WebP output, on request")
    func webp() async throws {
        var configuration = Thumbnailer.Configuration()
        configuration.sizes = [150]
        configuration.formats = [.webp]
        let thumbnails = try await Thumbnailer(configuration: configuration, threadPool: .singleton)
            .thumbnails(of: SampleImage.noisy(width: 900, height: 600, seed: 4))
        let header = try Thumbnailer.header(of: thumbnails.sizes[0].data)
        #expect(header.format == "webp")
        #expect(header.width == 150 && header.height == 100)
    }

    @Test("an image smaller than a thumbnail size is not enlarged")
    func small() async throws {
        let thumbnails = try await thumbnailer.thumbnails(
            of: SampleImage.noisy(width: 300, height: 150, seed: 1))
        #expect(thumbnails.sizes.map(\.width) == [300, 200])
    }

    @Test("hostile input fails with a short reason")
    func hostile() async throws {
        let jpeg = try SampleImage.noisy(width: 1200, height: 800, seed: 3)
        let cases: [(String, [UInt8], [ThumbnailFailure])] = [
            ("0 bytes", [], [.empty]),
            ("HTML served as image/jpeg", Array("<html><body>Not found</body></html>".utf8), [.notAnImage]),
            (
                "SVG", Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect/></svg>".utf8),
                [.notAnImage, .formatNotAllowed("svg")]
            ),
            (
                "PNG claiming 100000x100000", Self.pngHeader(width: 100_000, height: 100_000),
                [
                    .tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000)
                ]
            ),
            (
                "JPEG claiming 65500x65500", Self.patchJPEGSize(jpeg, width: 65_500, height: 65_500),
                [
                    .tooManyPixels(width: 65_500, height: 65_500, limit: 100_000_000)
                ]
            ),
        ]
        for (name, bytes, expected) in cases {
            await #expect(throws: ThumbnailFailure.self, "\(name)") { _ = try await thumbnailer.thumbnails(of: bytes) }
            do {
                _ = try await thumbnailer.thumbnails(of: bytes)
            } catch {
                #expect(expected.contains(error), "\(name): \(error)")
            }
        }
        do {
            _ = try await thumbnailer.thumbnails(of: Array(jpeg.prefix(jpeg.count / 2)))
            Issue.record("a truncated JPEG gave thumbnails")
        } catch {
            guard case .undecodable(let detail) = error else {
                Issue.record("truncated JPEG: \(error)")
                return
            }
            #expect(!detail.isEmpty && !detail.contains("\n"))
        }
    }

    /// A PNG signature, a valid IHDR chunk announcing the size, a token IDAT and IEND: the
    /// header says 100000x100000, the data could not fill a row.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func bigEndian(_ value: UInt32) -> [UInt8] {
            (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat)
            + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Rewrites the size in the JPEG's start-of-frame marker, leaving the data as it was.
    static func patchJPEGSize(_ jpeg: [UInt8], width: UInt16, height: UInt16) -> [UInt8] {
        var bytes = jpeg
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { break }
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if [0xC0, 0xC1, 0xC2].contains(marker) {
                bytes[index + 5] = UInt8(height >> 8)
                bytes[index + 6] = UInt8(height & 0xFF)
                bytes[index + 7] = UInt8(width >> 8)
                bytes[index + 8] = UInt8(width & 0xFF)
                return bytes
            }
            index += 2 + length
        }
        return bytes
    }
}
