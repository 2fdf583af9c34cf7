import CVips

/// Images made by libvips for the sample collection, the tests and the benchmarks: nothing a
/// worker ships needs them.
package enum SampleImage {
    /// A smooth gradient JPEG, cheap to make and decode: the sample collection's images.
    package static func painting(width: Int, height: Int, seed: Int, quality: Int = 85) throws -> [UInt8] {
        try encoded { output, length, error in
            artpipe_vips_make_painting(
                Int32(width), Int32(height), Int32(seed), Int32(quality), output, length, error, 512)
        }
    }

    /// A noisy image of the given size and format (`.jpg`, `.png`, `.webp`, `.tif`): costly to
    /// compress, like a photograph.
    package static func noisy(width: Int, height: Int, seed: Int, format: String = ".jpg", quality: Int = 85)
        throws -> [UInt8]
    {
        try encoded { output, length, error in
            artpipe_vips_make_image(
                Int32(width), Int32(height), Int32(seed), format, Int32(quality), output, length, error, 512)
        }
    }

    /// libvips started once per process: `vips_init` must not run on two threads at once, so
    /// the shim holds a lock around it (the thumbnailer starts it too, from its own module).
    private static let started: Result<Void, SampleImageError> = {
        var error = [CChar](repeating: 0, count: 512)
        return artpipe_vips_init("artpipe", &error, error.count) == 0 ? .success(()) : .failure(SampleImageError(error))
    }()

    /// Returns what the shim call made, libvips started first.
    private static func encoded(
        _ make: (
            UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>
        ) -> Int32
    ) throws -> [UInt8] {
        try started.get()
        var error = [CChar](repeating: 0, count: 512)
        var output: UnsafeMutableRawPointer?
        var length = 0
        guard make(&output, &length, &error) == 0, let output else { throw SampleImageError(error) }
        defer { artpipe_vips_free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }
}

/// libvips could not make a sample image.
package struct SampleImageError: Error, CustomStringConvertible {
    package let description: String

    init(_ buffer: [CChar]) {
        description = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
