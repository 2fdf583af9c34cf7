/// One work on a page.
package struct Artwork: Codable, Sendable, Equatable {
    package var objectNumber: String
    package var title: String
    /// The maker's name as the source gives it; empty when the source gives none.
    package var artist: String
    /// An image URL sized for the thumbnails, when the work has a usable image.
    package var imageURL: String?
    package var width: Int?
    package var height: Int?
    /// 0-based position on the page.
    package var position: Int
    /// The source's stable id of the record (OAI-PMH's header identifier), for sources that
    /// version their records; nil otherwise.
    package var recordId: String?
    /// When the source last changed the record (UTC, `YYYY-MM-DDThh:mm:ssZ`), for versioned sources.
    package var datestamp: String?

    package init(
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
