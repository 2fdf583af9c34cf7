/// An encoding thumbnails are written in. With both, each size is written in each, JPEG first:
/// a gallery offers the WebP where the browser takes it, the JPEG everywhere.
package enum ThumbnailFormat: String, Sendable, CaseIterable, Comparable {
    case jpeg, webp

    /// The extension of its files: a WebP thumbnail's path ends in `.webp`, a JPEG's in `.jpg`.
    package var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    /// Its number in ``artpipe_vips_thumbnails``' `formats`.
    var shimCode: Int32 {
        switch self {
        case .jpeg: 0
        case .webp: 1
        }
    }

    /// The formats `text` names, comma-separated (`jpeg,webp`); nil when it names none, or one
    /// that is not a format here.
    package static func list(_ text: String) -> Set<ThumbnailFormat>? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let formats = names.compactMap { name in allCases.first { $0.rawValue == name || $0.fileExtension == name } }
        return formats.isEmpty || formats.count != names.count ? nil : Set(formats)
    }

    package static func < (a: ThumbnailFormat, b: ThumbnailFormat) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
