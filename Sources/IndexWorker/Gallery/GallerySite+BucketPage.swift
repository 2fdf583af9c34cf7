import ArtpipeSupport

extension GallerySite {
    /// `gallery/<bucket>.html`: each of the bucket's artist slices with its works; with `site`,
    /// its Open Graph properties (``OpenGraph``).
    static func bucketPage(
        _ bucket: Int, _ slices: [IndexLayout.Slice], of index: IndexContent, plan: IndexLayout.Plan,
        site: SiteAddress?
    ) -> [UInt8] {
        let works = slices.map(\.works.count).reduce(0, +)
        var html = HTMLText(reservingCapacity: 300 * works + 4096)
        let names = slices.map { displayName(index.artists[$0.artist].name) }
        let title = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        html.head(
            title: title, style: "style.css",
            openGraph: site.map { openGraph(bucket, slices, of: index, works: works, title: title, site: $0) })
        html.raw("<header><a href=\"../index.html\">All artists</a></header>\n")
        var linked = LinkedData(bucket: bucket, works: works)
        for slice in slices {
            let artist = index.artists[slice.artist]
            let artistSlices = plan.slices[slice.artist]
            html.raw("<section id=\"")
            html.markup(IndexLayout.anchor(of: artist.name, slice: slice.number))
            html.raw("\"><h2>")
            html.text(displayName(artist.name))
            html.raw(" <small>")
            if artistSlices.count > 1 {
                html.markup("works \(slice.works.lowerBound + 1)–\(slice.works.upperBound) of ")
            }
            html.int(artist.workCount)
            html.raw(artist.workCount == 1 ? " work</small></h2>\n" : " works</small></h2>\n")
            html.raw("<div class=\"works\">\n")
            for work in index.works(of: slice.artist, slice.works) {
                let anchor = workAnchor(work)
                figure(work, anchor: anchor, into: &html)
                linked.add(work, by: artist.name, anchor: anchor)
            }
            html.raw("</div>\n")
            if slice.number + 1 < artistSlices.count {
                let next = artistSlices[slice.number + 1]
                html.raw("<p class=\"more\"><a href=\"")
                html.text(link(slice: next, of: artist.name))
                html.markup("\">Works \(next.works.lowerBound + 1)–\(next.works.upperBound) →</a></p>\n")
            }
            html.raw("</section>\n")
        }
        linked.finish(into: &html)
        html.raw(workDetailScript)
        html.raw("</body></html>\n")
        return html.bytes
    }

    /// A bucket page's Open Graph properties: its title, how many works it shows, and the image
    /// of its first work that has one (the larger thumbnail where made).
    private static func openGraph(
        _ bucket: Int, _ slices: [IndexLayout.Slice], of index: IndexContent, works: Int, title: String,
        site: SiteAddress
    ) -> OpenGraph {
        var graph = OpenGraph(
            site: site, title: title, description: works == 1 ? "1 work" : "\(grouped(works)) works",
            path: bucketPath(bucket))
        search: for slice in slices {
            for work in index.works(of: slice.artist, slice.works) {
                guard let image = work.thumbnails[detailSize] ?? work.thumbnails[preferredSize] else { continue }
                graph.image = (image, work.title.isEmpty ? work.objectNumber : work.title)
                break search
            }
        }
        return graph
    }

    /// One work: a tile that opens its detail (``workDetailScript``), with its thumbnail, or words
    /// saying why there is none (the reason on hover).
    private static func figure(_ work: ArtistIndex.Work, anchor: String, into html: inout HTMLText) {
        let title = work.title.isEmpty ? work.objectNumber : work.title
        html.raw("<figure id=\"")
        html.markup(anchor)
        html.raw("\" data-work=\"")
        html.text(work.objectNumber)
        html.raw("\"><a class=\"tile\" href=\"#")
        html.markup(anchor)
        html.raw("\">")
        if let path = work.thumbnails[preferredSize] ?? work.thumbnails.values.sorted().first {
            // The WebP of the same size, where one was made, for the browsers that take it.
            let webp = work.thumbnails[preferredSize] == path ? work.webpThumbnails?[preferredSize] : nil
            if let webp {
                html.raw("<picture><source type=\"image/webp\" srcset=\"")
                html.text(link("../" + webp))
                // The larger WebP, for the work's detail (``workDetailScript``).
                if work.thumbnails[detailSize] != nil, let large = work.webpThumbnails?[detailSize] {
                    html.raw("\" data-large=\"")
                    html.text(link("../" + large))
                }
                html.raw("\">")
            }
            html.raw("<img loading=\"lazy\" ")
            if let colour = ArtistIndex.Work.placeholder(work.colour) {
                // In the image's place until it loads, then the mat around it, instead of the style's grey.
                html.raw("style=\"background:")
                html.markup(colour)
                html.raw("\" ")
            }
            html.raw("src=\"")
            html.text(link("../" + path))
            html.raw("\" alt=\"")
            html.text(title)
            html.raw(webp == nil ? "\">" : "\"></picture>")
        } else {
            switch work.thumbnailStatus {
            case "noImage":
                html.raw("<div class=\"none\" title=\"The collection has no image of this work\">No image</div>")
            case "failed":
                html.raw("<div class=\"none failed\" title=\"")
                html.text(work.thumbnailReason ?? "no reason was given")
                html.raw("\">Thumbnail failed</div>")
            default:
                html.raw("<div class=\"none\" title=\"Its thumbnail has not been made yet\">Not made yet</div>")
            }
        }
        html.raw("<figcaption title=\"")
        html.text(title)
        html.raw(" (")
        html.text(work.objectNumber)
        html.raw(")\">")
        html.text(title)
        html.raw("</figcaption></a></figure>\n")
    }
}
