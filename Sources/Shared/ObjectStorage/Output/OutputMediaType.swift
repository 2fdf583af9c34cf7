/// The `Content-Type` and `Cache-Control` a published object is served with, so a bucket
/// can serve the gallery directly (static website hosting, or a CDN in front).
enum OutputMediaType {
    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last.map({ $0.lowercased() }) ?? "" {
        case "json": "application/json"
        case "jsonl": "application/jsonl"
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "xml": "application/xml"
        default: "application/octet-stream"
        }
    }

    /// Thumbnails never change under their name (each image version has its own), so caches
    /// may keep them; everything else is checked again on every use.
    static func cacheControl(of path: String) -> String {
        if path.hasPrefix("thumbs/") && !path.hasPrefix("thumbs/.") {
            return "public, max-age=31536000, immutable"
        }
        return "no-cache"
    }
}
