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

    public init(
        objectNumber: String, title: String, artist: String, imageURL: String?, width: Int?, height: Int?, position: Int
    ) {
        self.objectNumber = objectNumber
        self.title = title
        self.artist = artist
        self.imageURL = imageURL
        self.width = width
        self.height = height
        self.position = position
    }
}
