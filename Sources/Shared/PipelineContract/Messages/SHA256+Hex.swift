import Crypto
import Foundation

extension SHA256 {
    /// The digest of `bytes` as 64 lower-case hex digits: page ids and thumbnail checksums.
    package static func hexDigest(of bytes: some DataProtocol) -> String {
        hash(data: bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
