import CVips

extension Thumbnailer {
    /// A smooth gradient JPEG, cheap to make and decode: the sample collection's images.
    public static func makeSampleImage(width: Int, height: Int, seed: Int, quality: Int = 85) throws -> [UInt8] {
        try LibVips.encoded { output, length, error in
            artpipe_vips_make_painting(
                Int32(width), Int32(height), Int32(seed), Int32(quality), output, length, error, 512)
        }
    }
}
