/// One object of the sample collection, as the legacy API describes it.
package struct SampleWork: Sendable, Equatable {
    /// What its image URL serves.
    package enum Image: Sendable, Equatable {
        /// A real JPEG of this size.
        case jpeg(width: Int, height: Int)
        /// Deliberately broken: the first bytes of a JPEG only.
        case truncated(width: Int, height: Int)
        /// Deliberately broken: an HTML page with status 200.
        case notAnImage
    }

    /// Its index in the collection; names its image URL.
    package let id: Int
    package let objectNumber: String
    package let title: String
    /// `principalOrFirstMaker`: may be empty or `anonymous`.
    package let maker: String
    /// Nil for a work without an image.
    package let image: Image?

    /// The work's dating as the museum's records write it (OAI-PMH's `dc:date`): a year, or
    /// approximate across a few years; none for one work in eleven.
    package var date: String? {
        guard id % 11 != 5 else { return nil }
        let year = 1580 + id % 140
        return id % 4 == 0 ? "c. \(year) - c. \(year + 3)" : "\(year)"
    }

    /// The work's page for a visitor (OAI-PMH's `edm:isShownAt`): the sample collection is made
    /// up, so its pages are on `example.org`.
    package var landingPage: String { "https://collection.example.org/objects/\(id)" }

    /// True when the image URL serves something that should give a thumbnail.
    package var hasGoodImage: Bool {
        if case .jpeg = image { return true }
        return false
    }
}
