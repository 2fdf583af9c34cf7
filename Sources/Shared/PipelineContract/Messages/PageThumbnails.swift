/// The thumbnails of one page, published by ThumbWorker to `artpipe.thumbnails`.
package struct PageThumbnails: PageMessage, Equatable {
    package static let schemaName = "page-thumbnails"

    package var v: Int
    package var pageId: String
    package var items: [Item]

    package init(pageId: String, items: [Item]) {
        self.v = Self.schemaVersion
        self.pageId = pageId
        self.items = items
    }

    package struct Item: Codable, Sendable, Equatable {
        package enum Status: String, Codable, Sendable {
            case ok, noImage, failed
        }

        package var objectNumber: String
        /// The image URL the item was made for (absent in messages before 0.7): the index joins
        /// thumbnails to the version of a work that names this image, so a late result for an
        /// older version's image never stands for a newer one.
        package var imageURL: String?
        /// The record the item was made for, where its artwork has a record id (absent
        /// otherwise, and in older messages): the index joins by it, so that two records of one
        /// page with one object number (an aggregator's institutions) each get their own.
        package var recordId: String?
        package var status: Status
        package var reason: String?
        package var files: [File]
        /// The colour a page shows in a thumbnail's place until it loads: the mean of the largest
        /// thumbnail's pixels in sRGB, as CSS writes it (`#8a7f6b`). Only on `ok` items; absent from
        /// earlier builds' messages and from thumbnails they made.
        package var colour: String?

        package init(objectNumber: String, status: Status, reason: String? = nil, files: [File] = []) {
            self.objectNumber = objectNumber
            self.status = status
            self.reason = reason
            self.files = files
        }
    }

    /// One thumbnail file; `path` is relative to the output directory.
    package struct File: Codable, Sendable, Equatable {
        package var size: Int
        package var path: String
        package var width: Int
        package var height: Int
        package var bytes: Int
        package var sha256: String

        package init(size: Int, path: String, width: Int, height: Int, bytes: Int, sha256: String) {
            self.size = size
            self.path = path
            self.width = width
            self.height = height
            self.bytes = bytes
            self.sha256 = sha256
        }
    }
}
