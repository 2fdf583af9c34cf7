import ArtpipeSupport

extension HTMLText {
    /// The opening of every gallery page: `title`, the shared style sheet at `style`.
    mutating func head(title: String, style: String) {
        raw("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
        text(title)
        raw("</title>\n<link rel=\"stylesheet\" href=\"")
        markup(style)
        raw("\"></head><body>\n")
    }
}
