import ArtpipeSupport
import CVips
import Foundation
import NIOPosix

/// Makes thumbnails with libvips, in memory, on the threads of a pool it is given.
///
/// Before anything is decoded, the header is read: only allowed formats and images up to
/// `maxPixels` get further. Decoding uses shrink-on-load, so a large JPEG is never held at
/// full size, and truncated input fails instead of giving a grey-bottomed thumbnail.
package final class Thumbnailer: Sendable {
    /// What thumbnails look like and which inputs are accepted.
    package struct Configuration: Sendable {
        /// The longest edge of each thumbnail, in pixels.
        package var sizes: [Int] = [200, 400]
        package var quality: Int = 82
        /// Each size is written in each of these, in ``ThumbnailFormat``'s order.
        package var formats: Set<ThumbnailFormat> = [.jpeg]
        /// The WebP's quality where it differs from `quality`.
        package var webpQuality: Int?

        /// The formats in the order each size is written in: JPEG alone when none is named.
        var orderedFormats: [ThumbnailFormat] { formats.isEmpty ? [.jpeg] : formats.sorted() }

        /// The quality `format` is written at.
        func quality(of format: ThumbnailFormat) -> Int { format == .webp ? webpQuality ?? quality : quality }
        package var maxPixels: Int = 100_000_000
        /// Formats accepted: JPEG, PNG, WebP and TIFF.
        var allowedFormats: Set<String> = ["jpeg", "png", "webp", "tiff"]
        /// Images processed at once (default: the number of cores).
        package var concurrency: Int = ProcessInfo.processInfo.activeProcessorCount

        package init() {}
    }

    /// A format and size read from an image's header.
    package struct Header: Sendable, Equatable {
        /// Lower-case format name from libvips' loader: `jpeg`, `png`, `webp`, `tiff`, `svg`…
        package let format: String
        package let width: Int
        package let height: Int
    }

    /// One encoded thumbnail.
    package struct Thumbnail: Sendable {
        package let size: Int
        package let format: ThumbnailFormat
        package let data: [UInt8]
        package let width: Int
        package let height: Int
    }

    /// What one image gives: a thumbnail at each size in each format, and the colour a page
    /// shows until they load.
    package struct Thumbnails: Sendable {
        /// Largest first; within a size, in ``ThumbnailFormat``'s order.
        package let sizes: [Thumbnail]
        /// The mean of the largest thumbnail's pixels in sRGB, as CSS writes it (`#8a7f6b`),
        /// read back from the bytes of its first format (so ``Thumbnailer/colour(ofThumbnail:)`` of its file gives
        /// the same); nil for an image libvips cannot take to sRGB.
        package let colour: String?

        /// `#rrggbb` of a colour packed as 0xRRGGBB; nil for a negative value.
        static func colour(packed: Int32) -> String? {
            guard packed >= 0 else { return nil }
            let hex = String(packed & 0xFF_FFFF, radix: 16)
            return "#" + String(repeating: "0", count: 6 - hex.count) + hex
        }
    }

    let configuration: Configuration
    private let threadPool: NIOThreadPool
    /// At most `configuration.concurrency` images in libvips at once, whatever the pool's size.
    private let limit: ConcurrencyLimit

    /// - Parameter threadPool: runs libvips' blocking calls; give it at least
    ///   `configuration.concurrency` threads.
    package init(configuration: Configuration, threadPool: NIOThreadPool) throws {
        try LibVips.start()
        LibVips.shareCores(amongImages: configuration.concurrency)
        self.configuration = configuration
        self.threadPool = threadPool
        self.limit = ConcurrencyLimit(configuration.concurrency)
    }

    /// Thumbnails at every configured size, largest first, or the reason there are none.
    package func thumbnails(of image: [UInt8]) async throws(ThumbnailFailure) -> Thumbnails {
        let configuration = self.configuration
        let result: Result<Thumbnails, ThumbnailFailure>
        await limit.acquire()
        defer { limit.release() }
        do {
            result = try await threadPool.runIfActive { Self.make(image, configuration: configuration) }
        } catch {
            result = .failure(.undecodable("\(error)"))
        }
        return try result.get()
    }

    /// The placeholder colour of a thumbnail file made earlier (``Thumbnails/colour``); nil when
    /// it is not a thumbnail this worker would read: a format not allowed, or over `maxPixels`.
    package func colour(ofThumbnail image: [UInt8]) async -> String? {
        let configuration = self.configuration
        await limit.acquire()
        defer { limit.release() }
        return try? await threadPool.runIfActive { () -> String? in
            guard let header = try? Self.header(of: image), configuration.allowedFormats.contains(header.format),
                header.width * header.height <= configuration.maxPixels
            else { return nil }
            return Thumbnails.colour(
                packed: image.withUnsafeBytes { artpipe_vips_mean_colour($0.baseAddress, $0.count) })
        }
    }

    /// The peak signal-to-noise ratio, in dB, of `encoded` against `reference`, two encoded images
    /// of one size (99 for the same pixels); nil when either cannot be read or their sizes differ.
    /// For benchmarks weighing one encoding against another; it decodes both at full size, on
    /// the thumbnailer's pool.
    package func peakSignalToNoise(of encoded: [UInt8], against reference: [UInt8]) async throws -> Double? {
        let ratio = try await threadPool.runIfActive {
            reference.withUnsafeBytes { reference in
                encoded.withUnsafeBytes {
                    artpipe_vips_psnr(reference.baseAddress, reference.count, $0.baseAddress, $0.count)
                }
            }
        }
        return ratio < 0 ? nil : ratio
    }

    /// The libvips this process loaded, for example "8.16.1".
    package static var libvipsVersion: String { String(cString: artpipe_vips_version()) }

    /// Whether libvips' vector (SIMD) paths are on: always, unless `VIPS_NOVECTOR` is set.
    package static var vectorPathsEnabled: Bool { artpipe_vips_vector_enabled() == 1 }

    /// The format of `image`, from its first bytes.
    package static func format(of image: [UInt8]) throws(ThumbnailFailure) -> String {
        guard !image.isEmpty else { throw .empty }
        var loader = [CChar](repeating: 0, count: 64)
        let found = image.withUnsafeBytes { artpipe_vips_loader($0.baseAddress, $0.count, &loader, loader.count) }
        guard found == 0 else { throw .notAnImage }
        // "VipsForeignLoadJpegBuffer" → "jpeg"
        return LibVips.text(loader).replacingOccurrences(of: "VipsForeignLoad", with: "")
            .replacingOccurrences(of: "Buffer", with: "").lowercased()
    }

    /// The format and size of `image`, decoding no pixels.
    package static func header(of image: [UInt8]) throws(ThumbnailFailure) -> Header {
        let format = try format(of: image)
        var width: Int32 = 0
        var height: Int32 = 0
        var error = [CChar](repeating: 0, count: 512)
        let status = image.withUnsafeBytes {
            artpipe_vips_header($0.baseAddress, $0.count, &width, &height, &error, error.count)
        }
        guard status == 0 else { throw .undecodable(LibVips.text(error)) }
        return Header(format: format, width: Int(width), height: Int(height))
    }

    static func make(_ image: [UInt8], configuration: Configuration) -> Result<Thumbnails, ThumbnailFailure> {
        do {
            // The format first: a blocked loader (SVG, PDF…) must not even read a header.
            let format = try format(of: image)
            guard configuration.allowedFormats.contains(format) else { throw ThumbnailFailure.formatNotAllowed(format) }
            let header = try header(of: image)
            guard header.width > 0, header.height > 0, header.width * header.height <= configuration.maxPixels else {
                throw ThumbnailFailure.tooManyPixels(
                    width: header.width, height: header.height, limit: configuration.maxPixels)
            }
            return .success(try encode(image, sizes: configuration.sizes.sorted(by: >), configuration: configuration))
        } catch let failure as ThumbnailFailure {
            return .failure(failure)
        } catch {
            return .failure(.undecodable("\(error)"))
        }
    }

    /// Every size from one decode of `image`, largest first, and its colour
    /// (``artpipe_vips_thumbnails``).
    private static func encode(_ image: [UInt8], sizes: [Int], configuration: Configuration) throws(ThumbnailFailure)
        -> Thumbnails
    {
        let count = sizes.count
        let formats = configuration.orderedFormats
        var outputs = [UnsafeMutableRawPointer?](repeating: nil, count: count * formats.count)
        var lengths = [Int](repeating: 0, count: count * formats.count)
        var widths = [Int32](repeating: 0, count: count)
        var heights = [Int32](repeating: 0, count: count)
        var colour: Int32 = -1
        var error = [CChar](repeating: 0, count: 512)
        let sizeValues = sizes.map { Int32($0) }
        let formatValues = formats.map(\.shimCode)
        let qualities = formats.map { Int32(configuration.quality(of: $0)) }
        let status = image.withUnsafeBytes { bytes in
            artpipe_vips_thumbnails(
                bytes.baseAddress, bytes.count, sizeValues, Int32(count), formatValues, qualities, Int32(formats.count),
                &outputs, &lengths, &widths, &heights, &colour, &error, error.count)
        }
        guard status == 0 else { throw .undecodable(LibVips.text(error)) }
        defer { for output in outputs { artpipe_vips_free(output) } }
        let made = (0..<count).flatMap { index in
            formats.enumerated().map { number, format in
                let at = index * formats.count + number
                return Thumbnail(
                    size: sizes[index], format: format,
                    data: Array(UnsafeRawBufferPointer(start: outputs[at], count: lengths[at])),
                    width: Int(widths[index]), height: Int(heights[index]))
            }
        }
        return Thumbnails(sizes: made, colour: Thumbnails.colour(packed: colour))
    }
}
