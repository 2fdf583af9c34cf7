import ArtpipeSupport

extension GallerySite {
    /// A bucket page's works for machines, and for the page's own detail pane
    /// (``workDetailScript``): schema.org `VisualArtwork`s in one JSON-LD script, each with its
    /// figure's id and permalink, title, object number, creator, date as the record writes it,
    /// both thumbnails, rights (a `license` with its words, or a `copyrightNotice`), its page at
    /// the source (`sameAs`) and its IIIF manifest (`subjectOf`). Text is escaped for a script
    /// element; a URL a record gave is written only when it is http(s).
    static func linkedData(
        _ works: [(artist: String, work: ArtistIndex.Work, anchor: String)], bucket: Int, into html: inout HTMLText
    ) {
        var json = JSONText(reservingCapacity: 360 * works.count)
        json.raw("<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@graph\":[")
        let page = IndexLayout.bucketName(bucket) + ".html#"
        for (number, (artist, work, anchor)) in works.enumerated() {
            if number > 0 { json.raw(",\n") }
            json.raw("{\"@type\":\"VisualArtwork\",\"@id\":\"#")
            json.verbatim(anchor)
            json.raw("\",\"url\":\"")
            json.verbatim(page + anchor)
            json.raw("\",\"name\":")
            json.string(work.title.isEmpty ? work.objectNumber : work.title, inScript: true)
            json.raw(",\"identifier\":")
            json.string(work.objectNumber, inScript: true)
            if !artist.isEmpty {
                json.raw(",\"creator\":{\"@type\":\"Person\",\"name\":")
                json.string(artist, inScript: true)
                json.byte(UInt8(ascii: "}"))
            }
            if let date = work.date {
                json.raw(",\"dateCreated\":")
                json.string(date, inScript: true)
            }
            let small = work.thumbnails[preferredSize]
            if let image = work.thumbnails[detailSize] ?? small {
                json.raw(",\"image\":")
                json.string(link("../" + image), inScript: true)
            }
            if let small {
                json.raw(",\"thumbnailUrl\":")
                json.string(link("../" + small), inScript: true)
            }
            if let rights = work.rights.map(RightsStatement.init) {
                if let license = rights.link, isWebAddress(license) {
                    json.raw(",\"license\":{\"@type\":\"CreativeWork\",\"@id\":")
                    json.string(license, inScript: true)
                    json.raw(",\"name\":")
                    json.string(rights.words, inScript: true)
                    json.byte(UInt8(ascii: "}"))
                } else {
                    json.raw(",\"copyrightNotice\":")
                    json.string(rights.words, inScript: true)
                }
            }
            if let landingPage = work.landingPage, isWebAddress(landingPage) {
                json.raw(",\"sameAs\":")
                json.string(landingPage, inScript: true)
            }
            if let manifest = work.iiifManifest, isWebAddress(manifest) {
                json.raw(",\"subjectOf\":{\"@type\":\"CreativeWork\",\"url\":")
                json.string(manifest, inScript: true)
                json.raw(",\"encodingFormat\":\"application/ld+json\"}")
            }
            json.byte(UInt8(ascii: "}"))
        }
        json.raw("]}</script>\n")
        html.part(json.bytes)
    }

    /// Whether `url` may be written as a link: http(s), and nothing that would end an attribute.
    static func isWebAddress(_ url: String) -> Bool {
        let lowered = url.prefix(8).lowercased()
        return (lowered.hasPrefix("https://") || lowered.hasPrefix("http://"))
            && !url.contains { $0 == " " || $0 == "\"" || $0 == "<" || $0 == ">" || $0.isNewline }
    }
}
