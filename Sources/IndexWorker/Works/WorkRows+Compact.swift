import EmbeddedStore

extension WorkRows {
    /// Writes the rows (not the work, which names them): the versions, the pages' thumbnails,
    /// 0.7's thumbnails by image.
    func write(to writer: inout CompactWriter) {
        writer.write(versions) { $0.write($1) }
        writer.write(pageImages) {
            $0.write($1.pageId)
            $0.write($1.imageURL)
            $0.write($1.item)
        }
        writer.write(images) {
            $0.write($1.imageURL)
            $0.write($1.item)
        }
    }

    /// The rows of `work` that ``write(to:)`` wrote, in `format` (``IndexValueFormat``).
    init(work: WorkKey, reading reader: inout CompactReader, format: Int = IndexValueFormat.current) throws {
        let versions = try reader.list { try $0.workVersion(format: format) }
        let pageImages = try reader.list {
            PageImage(pageId: try $0.string(), imageURL: try $0.string(), item: try $0.thumbnailItem(format: format))
        }
        let images = try reader.list {
            ImageThumbnails(imageURL: try $0.string(), item: try $0.thumbnailItem(format: format))
        }
        self.init(work: work, versions: versions, pageImages: pageImages, images: images)
    }
}
