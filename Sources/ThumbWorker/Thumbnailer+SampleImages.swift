import CVips

extension Thumbnailer {
    /// A smooth gradient JPEG, cheap to make and decode: the sample collection's images.
    public static func makeSampleImage(width: Int, height: Int, seed: Int, quality: Int = 85) throws -> [UInt8] {
        try LibVips.start()
        var output: UnsafeMutableRawPointer?
        var length = 0
        var error = [CChar](repeating: 0, count: 512)
        guard
            artpipe_vips_make_painting(
                Int32(width), Int32(height), Int32(seed), Int32(quality), &output, &length, &error, error.count)
                == 0,
            let output
        else { throw ThumbnailFailure.undecodable(LibVips.text(error)) }
        defer { artpipe_vips_free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }
}
