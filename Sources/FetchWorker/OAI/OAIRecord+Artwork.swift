import PipelineContract

extension OAIRecord {
    /// The work this record describes, at `position` on its page, its image sized for `imageEdge`.
    func artwork(position: Int, imageEdge: Int) -> Artwork {
        var artwork = Artwork(
            objectNumber: objectNumber, title: title, artist: creator,
            imageURL: imageURL.map { ImageURLSizing.sized($0, longestEdge: imageEdge) }, width: nil, height: nil,
            position: position, recordId: identifier, datestamp: datestamp)
        artwork.date = date
        artwork.years = years
        artwork.landingPage = landingPage
        artwork.rights = rights
        artwork.iiifManifest = iiifManifest
        artwork.iiifImageService = iiifImageService
        return artwork
    }
}
