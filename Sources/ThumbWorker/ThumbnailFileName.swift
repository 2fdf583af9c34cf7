import Crypto
import PipelineContract

/// File names for thumbnails, from object numbers.
///
/// Letters, digits, `-` and `_` stay; every other byte of the UTF-8 becomes `%XX`. So no name
/// holds `/` or starts with `.`, none can leave its folder, and different object numbers give
/// different names. Names longer than 150 bytes keep their first 100 bytes, then `~` and the
/// SHA-256 of the whole object number (`~` never appears otherwise); the empty object number
/// is `~empty`.
public enum ThumbnailFileName {
    /// The folder a work's files go in: two hex digits of the SHA-256 of its object number,
    /// so 256 folders share the files and none holds more than about 10,000 at two million works.
    public static func folder(_ objectNumber: String) -> String {
        String(SHA256.hexDigest(of: Array(objectNumber.utf8)).prefix(2))
    }

    /// `thumbs/<size>/<folder>/<name>.<ext>`, relative to the output directory.
    public static func thumbnailPath(_ objectNumber: String, size: Int, fileExtension: String) -> String {
        "thumbs/\(size)/\(folder(objectNumber))/\(make(objectNumber)).\(fileExtension)"
    }

    /// `thumbs/.manifests/<folder>/<name>.json`, relative to the output directory.
    public static func manifestPath(_ objectNumber: String) -> String {
        "thumbs/.manifests/\(folder(objectNumber))/\(make(objectNumber)).json"
    }

    public static func make(_ objectNumber: String) -> String {
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
