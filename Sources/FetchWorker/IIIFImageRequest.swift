import Foundation

/// A IIIF Image API request URL: `{service}/{region}/{size}/{rotation}/{quality}.{format}`.
enum IIIFImageRequest {
    static let qualities: Set<String> = ["default", "color", "gray", "bitonal", "native", "grey", "colour"]

    /// The image service `url` asks (the URL without region, size, rotation, quality and format);
    /// nil when `url` is not an http(s) IIIF image request with an identifier.
    static func service(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.host?.isEmpty == false, components.query == nil,
            components.fragment == nil
        else { return nil }
        let parts = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        // The leading empty part, an identifier at least, then the four parameters.
        guard parts.count >= 6, !parts[parts.count - 5].isEmpty else { return nil }
        let (region, size, rotation, file) = (
            parts[parts.count - 4], parts[parts.count - 3], parts[parts.count - 2], parts[parts.count - 1]
        )
        let name = file.split(separator: ".", omittingEmptySubsequences: false)
        guard name.count == 2, qualities.contains(String(name[0])), !name[1].isEmpty, !size.isEmpty,
            isRegion(region), isRotation(rotation)
        else { return nil }
        var end = url.endIndex
        for _ in 0..<4 {
            guard let slash = url[..<end].lastIndex(of: "/") else { return nil }
            end = slash
        }
        return String(url[..<end])
    }

    /// `full`, `square`, `pct:x,y,w,h` or `x,y,w,h`.
    private static func isRegion(_ text: Substring) -> Bool {
        if text == "full" || text == "square" { return true }
        let box = text.hasPrefix("pct:") ? text.dropFirst(4) : text
        let numbers = box.split(separator: ",", omittingEmptySubsequences: false)
        return numbers.count == 4 && numbers.allSatisfy { isNumber($0) }
    }

    /// Degrees, mirrored when written after `!`.
    private static func isRotation(_ text: Substring) -> Bool {
        isNumber(text.hasPrefix("!") ? text.dropFirst() : text)
    }

    private static func isNumber(_ text: Substring) -> Bool {
        !text.isEmpty && text.contains { $0.isASCII && $0.isWholeNumber }
            && text.allSatisfy { ($0.isASCII && $0.isWholeNumber) || $0 == "." }
    }
}
