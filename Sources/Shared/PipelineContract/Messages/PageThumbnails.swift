/// The thumbnails of one page, published by ThumbWorker to `artpipe.thumbnails`.
public struct PageThumbnails: PageMessage, Equatable {
    public static let schemaName = "page-thumbnails"

    public var v: Int
    public var pageId: String
    public var items: [Item]

    public init(pageId: String, items: [Item]) {
        self.v = Self.schemaVersion
        self.pageId = pageId
        self.items = items
    }

    public struct Item: Codable, Sendable, Equatable {
        public enum Status: String, Codable, Sendable {
            case ok, noImage, failed
        }

        public var objectNumber: String
        public var status: Status
        public var reason: String?
        public var files: [File]

        public init(objectNumber: String, status: Status, reason: String? = nil, files: [File] = []) {
            self.objectNumber = objectNumber
            self.status = status
            self.reason = reason
            self.files = files
        }
    }

    /// One thumbnail file; `path` is relative to the output directory.
    public struct File: Codable, Sendable, Equatable {
        public var size: Int
        public var path: String
        public var width: Int
        public var height: Int
        public var bytes: Int
        public var sha256: String

        public init(size: Int, path: String, width: Int, height: Int, bytes: Int, sha256: String) {
            self.size = size
            self.path = path
            self.width = width
            self.height = height
            self.bytes = bytes
            self.sha256 = sha256
        }
    }
}
