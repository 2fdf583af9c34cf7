/// Percent-encoding (RFC 3986): every byte of the UTF-8 but the unreserved `A–Z a–z 0–9 - _ . ~`
/// as `%XX` in capitals. The one encoder: S3's signatures want exactly this, and a relative URL
/// built from it names the file whose name was encoded, whatever that name holds (a `%` too).
package enum PercentEncoding {
    /// One name or value: a `/` is encoded too.
    package static func component(_ text: String) -> String {
        encode(text, keepingSlash: false)
    }

    /// A path: each segment encoded, the slashes kept.
    package static func path(_ text: String) -> String {
        encode(text, keepingSlash: true)
    }

    private static func encode(_ text: String, keepingSlash: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepingSlash:
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
