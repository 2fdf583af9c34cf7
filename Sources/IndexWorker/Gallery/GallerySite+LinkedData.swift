import ArtpipeSupport

extension GallerySite {
    /// A bucket page's works for machines: schema.org `VisualArtwork`s in one JSON-LD script, each
    /// with its permalink (`url`), title, creator, date, image, licence, object number and its
    /// page at the source (`sameAs`).
    static func linkedData(
        _ works: [(artist: String, work: ArtistIndex.Work)], bucket: Int, into html: inout HTMLText
    ) {
        var json = JSONText(reservingCapacity: 300 * works.count)
        json.raw("<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@graph\":[")
        let page = IndexLayout.bucketName(bucket) + ".html#"
        for (number, (artist, work)) in works.enumerated() {
            if number > 0 { json.raw(",\n") }
            json.raw("{\"@type\":\"VisualArtwork\",\"url\":")
            json.string(page + workAnchor(work), inScript: true)
            json.raw(",\"name\":")
            json.string(work.title.isEmpty ? work.objectNumber : work.title, inScript: true)
            json.raw(",\"identifier\":")
            json.string(work.objectNumber, inScript: true)
            if !artist.isEmpty {
                json.raw(",\"creator\":{\"@type\":\"Person\",\"name\":")
                json.string(artist, inScript: true)
                json.byte(UInt8(ascii: "}"))
            }
            if let years = work.years, years.earliest == years.latest {
                json.raw(",\"dateCreated\":")
                json.string(String(years.earliest))
            } else if let date = work.date {
                json.raw(",\"dateCreated\":")
                json.string(date, inScript: true)
            }
            if let image = work.thumbnails[detailSize] ?? work.thumbnails[preferredSize] {
                json.raw(",\"image\":")
                json.string(link("../" + image), inScript: true)
            }
            if let license = work.rights.flatMap({ RightsStatement($0).link }), isWebAddress(license) {
                json.raw(",\"license\":")
                json.string(license, inScript: true)
            }
            if let landingPage = work.landingPage, isWebAddress(landingPage) {
                json.raw(",\"sameAs\":")
                json.string(landingPage, inScript: true)
            }
            json.byte(UInt8(ascii: "}"))
        }
        json.raw("]}</script>\n")
        html.part(json.bytes)
    }
}
