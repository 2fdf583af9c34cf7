import ArtpipeSupport

/// A gallery page's Open Graph properties (ogp.me): what a link to the page shows where it is
/// shared, and its canonical URL. The protocol's URLs are absolute, so they are written only
/// for a copy given the site's address (`--site-url`); every value is set as attribute text.
///
/// A work's permalink is a fragment of its bucket page, and a page shared has one set of
/// properties: a link to any work shows its bucket (its artists, and the first work's image).
struct OpenGraph {
    let site: SiteAddress
    let title: String
    let description: String
    /// The page's path from the output's top, unencoded.
    let path: String
    /// The image shown: its path from the output's top, unencoded, and its words.
    var image: (path: String, alt: String)?

    func write(into html: inout HTMLText) {
        let url = site.url(of: GallerySite.link(path))
        html.raw("<link rel=\"canonical\" href=\"")
        html.text(url)
        html.raw("\">\n")
        property("og:type", "website", into: &html)
        property("og:title", title, into: &html)
        property("og:description", description, into: &html)
        property("og:url", url, into: &html)
        if let image {
            property("og:image", site.url(of: GallerySite.link(image.path)), into: &html)
            property("og:image:alt", image.alt, into: &html)
        }
    }

    private func property(_ name: StaticString, _ value: String, into html: inout HTMLText) {
        html.raw("<meta property=\"")
        html.raw(name)
        html.raw("\" content=\"")
        html.text(value)
        html.raw("\">\n")
    }
}
