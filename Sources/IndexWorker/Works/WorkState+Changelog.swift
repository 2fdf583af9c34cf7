import EmbeddedStore

extension WorkState {
    /// The format of a work's row in `artpipe.index-works-state`, the first number of its bytes.
    static let changelogFormat = IndexValueFormat.current

    /// The work's row in the works stage's changelog: the format, then its rows. Its line is
    /// left out: it is a function of the rows, made again when the row is restored.
    var changelogValue: [UInt8] {
        var writer = CompactWriter()
        writer.write(Self.changelogFormat)
        rows.write(to: &writer)
        return writer.bytes
    }

    /// The state of `work` that a row of its changelog holds, its line where its rows put it.
    /// Throws ``CompactReader/Malformed`` for bytes no version of artpipe wrote, or a later one.
    init(work: WorkKey, changelogValue bytes: [UInt8], shards: IndexShards) throws {
        var reader = CompactReader(bytes)
        let format = try reader.int()
        guard IndexValueFormat.readable.contains(format) else {
            throw CompactReader.Malformed(
                description:
                    "a work's state in format \(format); this version reads formats \(IndexValueFormat.readable)")
        }
        let rows = try WorkRows(work: work, reading: &reader, format: format)
        guard reader.isAtEnd else { throw CompactReader.Malformed(description: "bytes after a work's state") }
        self.init(restoring: rows, shards: shards)
    }
}
