import PipelineContract

extension Page {
    /// The page with its makers and object numbers in ``CanonicalText``; itself, uncopied, when
    /// they are all ASCII.
    func canonicalized() -> Page {
        guard artworks.contains(where: { !CanonicalText.isASCII($0.artist) || !CanonicalText.isASCII($0.objectNumber) })
        else { return self }
        var page = self
        for index in page.artworks.indices {
            page.artworks[index].artist = CanonicalText.of(page.artworks[index].artist)
            page.artworks[index].objectNumber = CanonicalText.of(page.artworks[index].objectNumber)
        }
        return page
    }
}
