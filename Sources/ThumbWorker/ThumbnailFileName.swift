import Crypto
import PipelineContract

/// File names for thumbnails, from object numbers and the version of the image they show.
///
/// Letters, digits, `-` and `_` stay; every other byte of the UTF-8 becomes `%XX`. So no name
/// holds `/`, `.` or starts with `.`, none can leave its folder, and different object numbers give
/// different names. Names longer than 150 bytes keep their first 100 bytes, then `~` and the
/// SHA-256 of the whole object number (`~` never appears otherwise); the empty object number
/// is `~empty`.
///
/// A file is `<name>.<version>.<ext>`: the version is a digest of the image URL and the
/// thumbnail settings, so two versions of a work (a full harvest's and an incremental one's,
/// thumbnailed in either order) never share a file, and the file an index entry names always
/// holds the bytes that entry describes. Files of releases before versions, `<name>.<ext>`,
/// are still read.
package enum ThumbnailFileName {
    /// Sixteen hex digits of the SHA-256 of the image URL and settings.
    static func version(imageURL: String, settings: String) -> String {
        String(SHA256.hexDigest(of: Array("\(imageURL)\n\(settings)".utf8)).prefix(16))
    }

    /// The folder a work's files go in: two hex digits of the SHA-256 of its object number,
    /// so 256 folders share the files and none holds more than about 10,000 at two million works.
    static func folder(_ objectNumber: String) -> String {
        String(SHA256.hexDigest(of: Array(objectNumber.utf8)).prefix(2))
    }

    /// `thumbs/<size>/<folder>/<name>.<version>.<ext>`, relative to the output directory.
    package static func thumbnailPath(_ objectNumber: String, version: String, size: Int, fileExtension: String)
        -> String
    {
        "thumbs/\(size)/\(folder(objectNumber))/\(make(objectNumber)).\(version).\(fileExtension)"
    }

    /// `thumbs/.manifests/<folder>/<name>.<version>.json`, relative to the output directory.
    static func manifestPath(_ objectNumber: String, version: String) -> String {
        "thumbs/.manifests/\(folder(objectNumber))/\(make(objectNumber)).\(version).json"
    }

    /// `thumbs/.manifests/<folder>/<name>.json`: the one manifest a work had before versions.
    static func unversionedManifestPath(_ objectNumber: String) -> String {
        "thumbs/.manifests/\(folder(objectNumber))/\(make(objectNumber)).json"
    }

    /// What a thumbnail or manifest file belongs to: its folder and name without the
    /// extension (`<folder>/<name>.<version>`), the same for a version's thumbnails and its
    /// manifest; `work` leaves the version out.
    package static func owner(ofPath path: some StringProtocol) -> (version: String, work: String) {
        let parts = path.split(separator: "/")
        let folder = parts.count >= 2 ? parts[parts.count - 2] : ""
        let file = parts.last ?? ""
        let stem = file.lastIndex(of: ".").map { file[..<$0] } ?? file
        let work = stem.firstIndex(of: ".").map { stem[..<$0] } ?? stem
        return ("\(folder)/\(stem)", "\(folder)/\(work)")
    }

    /// The ``owner(ofPath:)`` work of `objectNumber`'s files.
    package static func workOwner(_ objectNumber: String) -> String {
        "\(folder(objectNumber))/\(make(objectNumber))"
    }

    static func make(_ objectNumber: String) -> String {
        guard !objectNumber.isEmpty else { return "~empty" }
        var escaped = ""
        for byte in objectNumber.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        guard escaped.utf8.count > 150 else { return escaped }
        return String(escaped.prefix(100)) + "~" + SHA256.hexDigest(of: Array(objectNumber.utf8))
    }
}
