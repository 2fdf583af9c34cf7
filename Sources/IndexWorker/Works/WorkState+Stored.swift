import Foundation

extension WorkState {
    /// The state as ``WorkStore`` keeps it, without its work (the store's key): the rows, and
    /// the line's shard and digest. Short field names: a million works make a million of them.
    private struct Stored: Codable {
        var v: [WorkVersion]
        var i: [WorkRows.ImageThumbnails]
        var s: Int?
        var d: Int?
    }

    /// The state's bytes in the store.
    func stored(with encoder: JSONEncoder) throws -> [UInt8] {
        Array(try encoder.encode(Stored(v: rows.versions, i: rows.images, s: line?.shard, d: line?.digest)))
    }

    /// The state of `work` from its bytes in the store.
    init(work: WorkKey, stored bytes: [UInt8], decoder: JSONDecoder) throws {
        let stored = try decoder.decode(Stored.self, from: Data(bytes))
        let line = stored.s.flatMap { shard in stored.d.map { LineMark(shard: shard, digest: $0) } }
        self.init(rows: WorkRows(work: work, versions: stored.v, images: stored.i), line: line)
    }
}
