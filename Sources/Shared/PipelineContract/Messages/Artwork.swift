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
    /// The work's date as the record displays it ("c. 1665", "1642"); nil when it gives none.
    package var date: String?
    /// The years ``date`` spans, where its text gives them.
    package var years: YearRange?
    /// The record's page at the source, for a visitor (`edm:isShownAt`, LIDO's `recordInfoLink`,
    /// Flickr's photo page, iTunes' `trackViewUrl`).
    package var landingPage: String?
    /// What one may do with the work, as the record states it: a rights statement's URI
    /// (Creative Commons, RightsStatements.org) or the record's own words.
    package var rights: String?
    /// The work's IIIF Presentation manifest, where the source has one.
    package var iiifManifest: String?
    /// The work's IIIF Image API service (its base URL, without a region or size).
    package var iiifImageService: String?

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
