import ArtpipeSupport

extension HTMLText {
    /// The opening of every gallery page: `title`, the shared style sheet at `style`, and the
    /// page's Open Graph properties where it has them.
    mutating func head(title: String, style: String, openGraph: OpenGraph? = nil) {
        raw("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
        text(title)
        raw("</title>\n")
        openGraph?.write(into: &self)
        raw("<link rel=\"stylesheet\" href=\"")
        markup(style)
        raw("\"></head><body>\n")
    }
}
