import EmbeddedStore

extension WorkState {
    /// The state's bytes in ``WorkStore``, without its work (the store's key): its rows, the
    /// line's shard and digest.
    var stored: [UInt8] {
        var writer = CompactWriter()
        rows.write(to: &writer)
        writer.write(line?.shard)
        writer.write(line?.digest)
        return writer.bytes
    }

    /// The state of `work` from its bytes in the store.
    init(work: WorkKey, stored bytes: [UInt8]) throws {
        var reader = CompactReader(bytes)
        let rows = try WorkRows(work: work, reading: &reader)
        let (shard, digest) = (try reader.optionalInt(), try reader.optionalInt())
        let line = shard.flatMap { shard in digest.map { LineMark(shard: shard, digest: $0) } }
        self.init(rows: rows, line: line)
    }
}
