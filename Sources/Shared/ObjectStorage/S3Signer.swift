import Crypto
import Foundation

/// AWS Signature Version 4 for S3: the `Authorization` header of one request.
///
/// The canonical request follows S3's rules: the path is encoded once (not twice, as for other
/// services), the query's keys and values are encoded and sorted, header values trimmed with
/// inner runs of spaces folded, and the payload's SHA-256 is both signed and sent as
/// `x-amz-content-sha256`.
package struct S3Signer: Sendable {
    let credentials: S3Credentials
    let region: String
    let service: String

    package init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers to add to a request: `x-amz-date`, `x-amz-content-sha256`, the session token
    /// when there is one, and `Authorization`. `headers` are the request's own (with `host`);
    /// every one of them is signed. `path` is already encoded (``S3Encoding/path(_:)``), and
    /// `query` holds the raw names and values.
    func signedHeaders(
        method: String, path: String, query: [(String, String)], headers: [(String, String)],
        payloadSHA256: String, date: Date
    ) -> [(String, String)] {
        let (amzDate, day) = Self.timestamps(date)
        var all = headers.map { ($0.0.lowercased(), Self.canonicalValue($0.1)) }
        var added = [("x-amz-date", amzDate), ("x-amz-content-sha256", payloadSHA256)]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        all += added
        all.sort { $0.0 < $1.0 }
        let signedNames = all.map(\.0).joined(separator: ";")
        let canonicalRequest = [
            method,
            path,
            S3Encoding.canonicalQuery(query),
            all.map { "\($0.0):\($0.1)\n" }.joined(),
            signedNames,
            payloadSHA256,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256.hash(data: Array(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        let signature = Self.hex(
            HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: signingKey(day: day)))
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedNames), Signature=\(signature)"
        return added + [("authorization", authorization)]
    }

    /// The key of one day, region and service, derived from the secret.
    private func signingKey(day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Array("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key))
        }
        return key
    }

    /// The SHA-256 of a payload, as the signature and `x-amz-content-sha256` carry it.
    static func payloadHash(_ bytes: some DataProtocol) -> String {
        hex(SHA256.hash(data: bytes))
    }

    static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `20130524T000000Z` and `20130524`, in UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        let day = "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))"
        return ("\(day)T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z", day)
    }

    /// Trimmed, with each inner run of spaces folded to one, as SigV4 compares header values.
    static func canonicalValue(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
    }
}
