import CVips
import Foundation

/// libvips, started once per process.
enum LibVips {
    private static let started: Result<Void, ThumbnailFailure> = {
        // Per-row warnings about damaged JPEGs would flood the worker's stdout.
        setenv("VIPS_WARNING", "0", 0)
        var error = [CChar](repeating: 0, count: 512)
        return artpipe_vips_init("artpipe", &error, error.count) == 0
            ? .success(()) : .failure(.undecodable(text(error)))
    }()

    static func start() throws {
        try started.get()
    }

    /// Gives each image the cores left when `images` run side by side, at least one thread,
    /// unless `VIPS_CONCURRENCY` says otherwise. A JPEG decodes on one thread: more threads per
    /// image only hand its work around (0.96x the wall time with one instead of two, in
    /// docs/benchmarks.md's `farm-bench` pairing). The setting is the process's.
    static func shareCores(amongImages images: Int) {
        guard ProcessInfo.processInfo.environment["VIPS_CONCURRENCY"] == nil else { return }
        artpipe_vips_set_threads_per_image(
            Int32(max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, images))))
    }

    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes a shim call made (freed here), or its error. `make` gets the output pointer,
    /// its length and a 512-byte error buffer, and returns 0 on success.
    static func encoded(
        _ make: (
            UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>
        ) -> Int32
    ) throws -> [UInt8] {
        try start()
        var output: UnsafeMutableRawPointer?
        var length = 0
        var error = [CChar](repeating: 0, count: 512)
        guard make(&output, &length, &error) == 0, let output else {
            throw ThumbnailFailure.undecodable(text(error))
        }
        defer { artpipe_vips_free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }
}
