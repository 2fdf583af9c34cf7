import Crypto

/// What a published file holds: whether a file must be written again is decided without
/// reading it. A bucket file is known by its SHA-256 (the bytes of every bucket would be as
/// large as the published index); a shared file by its bytes, which an assembly hands back as
/// the very buffer it handed last time when the file did not change (``LetterPages``,
/// ``ArtistLists``), so the comparison costs nothing where hashing 20 MB a round did. Which of
/// the two is decided by the path, so one file is always known the same way. Absent is a
/// content of its own.
struct FileContent: Equatable {
    private enum Held: Equatable {
        case absent
        case digest(SHA256Digest)
        case bytes([UInt8])
    }

    private let held: Held

    init(_ bytes: [UInt8]?, at path: String) {
        guard let bytes else {
            held = .absent
            return
        }
        held = IndexLayout.bucket(ofFile: path) != nil ? .digest(SHA256.hash(data: bytes)) : .bytes(bytes)
    }
}
