import Foundation

/// Asks image hosts for a size just above the largest thumbnail, so downloads stay small.
package enum ImageURLSizing {
    /// - googleusercontent / ggpht: the `=s0` (or any `=…`) suffix becomes `=sN`; appended when missing.
    /// - IIIF: `/full/<size>/<rotation>/<quality>.<format>` becomes `/full/!N,N/0/default.jpg`.
    /// - Anything else is left as it is.
    /// Plain-http links to those hosts are upgraded to https.
    static func sized(_ url: String, longestEdge: Int) -> String {
        guard var components = URLComponents(string: url), let host = components.host?.lowercased() else { return url }
        if host.hasSuffix("googleusercontent.com") || host.hasSuffix("ggpht.com") {
            components.scheme = "https"
            var path = components.percentEncodedPath
            if let equals = path.lastIndex(of: "="), !path[equals...].contains("/") {
                path = String(path[..<equals])
            }
            components.percentEncodedPath = path + "=s\(longestEdge)"
            return components.string ?? url
        }
        let parts = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 5, parts[parts.count - 4] == "full" {
            components.percentEncodedPath =
                parts.dropLast(3).joined(separator: "/") + "/!\(longestEdge),\(longestEdge)/0/default.jpg"
            // The museum's IIIF host serves https; another host (a local stand-in) keeps its scheme.
            if components.scheme == "http", host.hasSuffix("micr.io") || host.hasSuffix("rijksmuseum.nl") {
                components.scheme = "https"
            }
            return components.string ?? url
        }
        return url
    }
}
