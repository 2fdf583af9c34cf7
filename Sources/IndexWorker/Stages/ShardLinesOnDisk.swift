/// One shard's lines in its copy's ``ShardLineFile``.
final class ShardLinesOnDisk: ShardLineTable, @unchecked Sendable {
    private let file: ShardLineFile
    private let shard: Int

    init(file: ShardLineFile, shard: Int) {
        (self.file, self.shard) = (file, shard)
    }

    func row(of work: WorkKey) throws -> ShardWorks.Row? {
        try file.row(of: work, in: shard)
    }

    func set(_ row: ShardWorks.Row?, of work: WorkKey) throws {
        try file.set(row, of: work, in: shard)
    }

    func works(of artist: String) throws -> [ArtistIndex.Work] {
        try file.works(of: artist, in: shard)
    }
}
