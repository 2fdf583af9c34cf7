import EmbeddedStore

extension WorkState {
    /// The state's bytes in ``WorkStore``, without its work (the store's key): the versions, the
    /// pages' thumbnails, 0.7's thumbnails by image, the line's shard and digest.
    var stored: [UInt8] {
        var writer = CompactWriter()
        writer.write(rows.versions) { $0.write($1) }
        writer.write(rows.pageImages) {
            $0.write($1.pageId)
            $0.write($1.imageURL)
            $0.write($1.item)
        }
        writer.write(rows.images) {
            $0.write($1.imageURL)
            $0.write($1.item)
        }
        writer.write(line?.shard)
        writer.write(line?.digest)
        return writer.bytes
    }

    /// The state of `work` from its bytes in the store.
    init(work: WorkKey, stored bytes: [UInt8]) throws {
        var reader = CompactReader(bytes)
        let versions = try reader.list { try $0.workVersion() }
        let pageImages = try reader.list {
            WorkRows.PageImage(pageId: try $0.string(), imageURL: try $0.string(), item: try $0.thumbnailItem())
        }
        let images = try reader.list {
            WorkRows.ImageThumbnails(imageURL: try $0.string(), item: try $0.thumbnailItem())
        }
        let (shard, digest) = (try reader.optionalInt(), try reader.optionalInt())
        let line = shard.flatMap { shard in digest.map { LineMark(shard: shard, digest: $0) } }
        self.init(rows: WorkRows(work: work, versions: versions, pageImages: pageImages, images: images), line: line)
    }
}
