import Crypto

/// What a published file holds, by its SHA-256: whether a file must be written again is
/// decided without keeping its bytes. Absent is a content of its own.
struct FileContent: Equatable {
    private let digest: SHA256Digest?

    init(_ bytes: [UInt8]?) {
        digest = bytes.map { SHA256.hash(data: $0) }
    }
}
