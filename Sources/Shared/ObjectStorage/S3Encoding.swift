/// Percent-encoding as SigV4 and S3 want it: every byte of the UTF-8 but the unreserved
/// `A–Z a–z 0–9 - _ . ~` as `%XX` in capitals (a space is `%20`, a `+` is `%2B`).
package enum S3Encoding {
    /// One name or value.
    static func component(_ text: String) -> String {
        encode(text, keepingSlash: false)
    }

    /// A path: each segment encoded, the slashes kept.
    static func path(_ text: String) -> String {
        encode(text, keepingSlash: true)
    }

    /// The canonical query: encoded names and values, sorted by name then value, joined with `&`.
    static func canonicalQuery(_ items: [(String, String)]) -> String {
        items.map { (component($0.0), component($0.1)) }
            .sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
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
