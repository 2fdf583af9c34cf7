/// One work on a page.
public struct Artwork: Codable, Sendable, Equatable {
    public var objectNumber: String
    public var title: String
    /// The maker's name as the source gives it; empty when the source gives none.
    public var artist: String
    /// An image URL sized for the thumbnails, when the work has a usable image.
    public var imageURL: String?
    public var width: Int?
    public var height: Int?
    /// 0-based position on the page.
    public var position: Int
    /// The source's stable id of the record (OAI-PMH's header identifier), for sources that
    /// version their records; nil otherwise.
    public var recordId: String?
    /// When the source last changed the record (UTC, `YYYY-MM-DDThh:mm:ssZ`), for versioned sources.
    public var datestamp: String?

    public init(
        objectNumber: String, title: String, artist: String, imageURL: String?, width: Int?, height: Int?,
        position: Int,
        recordId: String? = nil, datestamp: String? = nil
    ) {
        self.recordId = recordId
        self.datestamp = datestamp
        self.objectNumber = objectNumber
        self.title = title
        self.artist = artist
        self.imageURL = imageURL
        self.width = width
        self.height = height
        self.position = position
    }
}
