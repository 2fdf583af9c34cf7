import Foundation

extension URLComponents {
    /// Sets the query as a form decoder reads it back: every byte but the unreserved ones
    /// (`A–Z a–z 0–9 - . _ ~`) percent-encoded. `queryItems` leaves `+` as it is, which a
    /// server reading `application/x-www-form-urlencoded` takes for a space: a resumption token
    /// in base64, or `--query text=c++`, would arrive changed.
    mutating func setFormQuery(_ items: [URLQueryItem]) {
        percentEncodedQuery =
            items.isEmpty
            ? nil
            : items.map { "\(Self.formEncoded($0.name))=\(Self.formEncoded($0.value ?? ""))" }.joined(separator: "&")
    }

    static func formEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var encoded = String.UnicodeScalarView()
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(Unicode.Scalar(byte))
            default:
                encoded.append("%")
                encoded.append(hex[Int(byte >> 4)])
                encoded.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(encoded)
    }
}
