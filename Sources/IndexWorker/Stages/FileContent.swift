import Crypto

/// What a published file holds: whether a file must be written again is decided without
/// reading it. A bucket file is known by its SHA-256 (the bytes of every bucket would be as
/// large as the published index); a shared file by its bytes, which an assembly hands back as
/// the very buffer it handed last time when the file did not change (``LetterPages``), so the
/// comparison costs nothing where hashing 20 MB a round did. Absent is a content of its own.
struct FileContent: Equatable {
    private enum Held: Equatable {
        case absent
        case digest(SHA256Digest)
        case bytes([UInt8])
    }

    private let held: Held

    /// Known by its digest.
    init(_ bytes: [UInt8]?) {
        held = bytes.map { .digest(SHA256.hash(data: $0)) } ?? .absent
    }

    /// Known by its bytes, kept.
    init(keeping bytes: [UInt8]?) {
        held = bytes.map { .bytes($0) } ?? .absent
    }

    static func == (a: FileContent, b: FileContent) -> Bool {
        switch (a.held, b.held) {
        case (.bytes(let bytes), .digest(let digest)), (.digest(let digest), .bytes(let bytes)):
            SHA256.hash(data: bytes) == digest
        default: a.held == b.held
        }
    }
}
