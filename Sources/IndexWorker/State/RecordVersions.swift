import PipelineContract

/// The rule for versioned sources (OAI-PMH): per record id, the newest version wins, and a
/// deletion at least as new as every version removes the work. The order of the inputs
/// plays no part, so the index stays a pure function of them.
enum RecordVersions {
    /// One version of a record, as it sorts: newer datestamp first; at the same datestamp a
    /// deletion beats a description; then the page id and the work's own fields, so even
    /// two different bodies at one datestamp resolve the same way every time.
    struct Version {
        var datestamp: String
        var deletion: Bool
        var pageId: String
        var artwork: Artwork?
        var page: Page?
        /// Where it is on its page (past the artworks for a deletion); -1 when not known.
        var position = -1

        var key: [String] {
            [
                datestamp, deletion ? "1" : "0", pageId, artwork?.objectNumber ?? "", artwork?.title ?? "",
                artwork?.artist ?? "", artwork?.imageURL ?? "",
            ]
        }

        init(datestamp: String, deletion: Bool, pageId: String, artwork: Artwork?, page: Page?) {
            (self.datestamp, self.deletion, self.pageId, self.artwork, self.page) =
                (datestamp, deletion, pageId, artwork, page)
        }

        /// The version at `position` of `page`: an artwork, or past the artworks, a deletion;
        /// nil for a position the page does not have.
        init?(at position: Int, of page: Page) {
            guard position >= 0 else { return nil }
            if position < page.artworks.count {
                let artwork = page.artworks[position]
                guard let datestamp = artwork.datestamp else { return nil }
                self.init(datestamp: datestamp, deletion: false, pageId: page.pageId, artwork: artwork, page: page)
                self.position = position
            } else {
                let deletions = page.deletions ?? []
                guard position - page.artworks.count < deletions.count else { return nil }
                let deletion = deletions[position - page.artworks.count]
                self.init(datestamp: deletion.datestamp, deletion: true, pageId: page.pageId, artwork: nil, page: nil)
            }
        }

        func isNewer(than other: Version) -> Bool {
            other.key.lexicographicallyPrecedes(key, by: ArtistIndex.scalarsPrecede)
        }
    }

    /// The live works by object number: for each record its winning version, unless that is a
    /// deletion. Two records with one object number: the newer wins, then the record id.
    static func latest(of pages: some Sequence<Page>) -> [String: (page: Page, artwork: Artwork)] {
        var newest: [String: Version] = [:]
        func offer(_ recordId: String, _ version: Version) {
            if let current = newest[recordId], !version.isNewer(than: current) { return }
            newest[recordId] = version
        }
        for page in pages {
            for artwork in page.artworks {
                guard let recordId = artwork.recordId, let datestamp = artwork.datestamp else { continue }
                offer(
                    recordId,
                    Version(datestamp: datestamp, deletion: false, pageId: page.pageId, artwork: artwork, page: page))
            }
            for deletion in page.deletions ?? [] {
                offer(
                    deletion.recordId,
                    Version(datestamp: deletion.datestamp, deletion: true, pageId: page.pageId, artwork: nil, page: nil)
                )
            }
        }
        var works: [String: (recordId: String, version: Version)] = [:]
        for (recordId, version) in newest {
            guard let artwork = version.artwork else { continue }
            if let current = works[artwork.objectNumber],
                (current.version.datestamp, current.recordId) >= (version.datestamp, recordId)
            {
                continue
            }
            works[artwork.objectNumber] = (recordId, version)
        }
        return works.compactMapValues { entry in
            guard let page = entry.version.page, let artwork = entry.version.artwork else { return nil }
            return (page, artwork)
        }
    }
}
