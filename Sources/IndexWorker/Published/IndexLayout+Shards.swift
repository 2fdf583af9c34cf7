extension IndexLayout {
    /// The bucket files of a shard's index (one that holds the shard's artists only): its
    /// `works/` and `gallery/` bucket files, the bytes the whole index has for them (with `site`,
    /// as served there).
    package static func bucketFiles(of shardIndex: ArtistIndex, shards: IndexShards, site: SiteAddress? = nil)
        -> [String: [UInt8]]
    {
        let index = IndexContent(shardIndex)
        let plan = Plan(index, shards: shards)
        var files: [String: [UInt8]] = [:]
        for bucket in plan.buckets.keys {
            for (path, bytes) in bucketFiles(bucket, of: index, plan: plan, site: site) { files[path] = bytes }
        }
        return files
    }

    /// The bucket a bucket file (`works/<bucket>.jsonl`, `gallery/<bucket>.html`) is of; nil for
    /// any other path.
    package static func bucket(ofFile path: String) -> Int? {
        // Asked of every listed file: the bytes are matched, not the characters.
        let utf8 = path.utf8
        return utf8.withContiguousStorageIfAvailable(bucket(ofFileBytes:))
            ?? Array(utf8).withUnsafeBufferPointer(bucket(ofFileBytes:))
    }

    private static let worksPrefix = Array("\(worksFolder)/".utf8)
    private static let galleryPrefix = Array("\(galleryFolder)/".utf8)

    /// `works/` or `gallery/`, three lowercase hex digits, `.jsonl` or `.html`.
    private static func bucket(ofFileBytes bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let (prefix, suffix): ([UInt8], String.UTF8View)
        switch bytes.count {
        case worksPrefix.count + 3 + 6: (prefix, suffix) = (worksPrefix, ".jsonl".utf8)
        case galleryPrefix.count + 3 + 5: (prefix, suffix) = (galleryPrefix, ".html".utf8)
        default: return nil
        }
        guard bytes.starts(with: prefix), bytes.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        var bucket = 0
        for byte in bytes[prefix.count..<prefix.count + 3] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): bucket = bucket * 16 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): bucket = bucket * 16 + Int(byte - UInt8(ascii: "a")) + 10
            default: return nil
            }
        }
        return bucket
    }
}
