import ArtpipeSupport

extension GallerySite {
    /// A bucket page's works for machines, and for the page's own detail pane
    /// (``workDetailScript``): schema.org `VisualArtwork`s in one JSON-LD script, each with its
    /// figure's id and permalink, title, object number, creator, date as the record writes it,
    /// both thumbnails, rights (a `license` with its words, or a `copyrightNotice`), its page at
    /// the source (`sameAs`) and its IIIF manifest (`subjectOf`). Text is escaped for a script
    /// element; a URL a record gave is written only when it is http(s).
    ///
    /// Written beside the page's HTML as its works are rendered (``add(_:by:anchor:)``), then
    /// closed at the page's end (``finish(into:)``): no work is kept for a second pass.
    struct LinkedData {
        private var json: JSONText
        private let page: String
        private var count = 0

        init(bucket: Int, works: Int) {
            json = JSONText(reservingCapacity: 360 * works)
            json.raw("<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@graph\":[")
            page = IndexLayout.bucketName(bucket) + ".html#"
        }

        mutating func add(_ work: ArtistIndex.Work, by artist: String, anchor: String) {
            if count > 0 { json.raw(",\n") }
            count += 1
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
                if let license = rights.link {
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
            if let landingPage = work.landingPage, WebAddress.isLink(landingPage) {
                json.raw(",\"sameAs\":")
                json.string(landingPage, inScript: true)
            }
            if let manifest = work.iiifManifest, WebAddress.isLink(manifest) {
                json.raw(",\"subjectOf\":{\"@type\":\"CreativeWork\",\"url\":")
                json.string(manifest, inScript: true)
                json.raw(",\"encodingFormat\":\"application/ld+json\"}")
            }
            json.byte(UInt8(ascii: "}"))
        }

        /// Closes the script and adds it to `html`.
        consuming func finish(into html: inout HTMLText) {
            json.raw("]}</script>\n")
            html.part(json.bytes)
        }
    }
}
