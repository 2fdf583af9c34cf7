import PipelineContract

extension ArtistIndex.Work {
    /// The work with what `artwork`'s record says beyond the index's own fields: its date, years,
    /// landing page, rights and IIIF links.
    func described(by artwork: Artwork) -> Self {
        var work = self
        (work.date, work.years, work.landingPage) = (artwork.date, artwork.years, artwork.landingPage)
        (work.rights, work.iiifManifest, work.iiifImageService) =
            (artwork.rights, artwork.iiifManifest, artwork.iiifImageService)
        return work
    }
}
