extension IndexLayout {
    /// The bucket files of a shard's index (one that holds the shard's artists only): its
    /// `works/` and `gallery/` bucket files, the bytes the whole index has for them.
    package static func bucketFiles(of shardIndex: ArtistIndex, shards: IndexShards) -> [String: [UInt8]] {
        let index = IndexContent(shardIndex)
        let plan = Plan(index, shards: shards)
        var files: [String: [UInt8]] = [:]
        for bucket in plan.buckets.keys {
            for (path, bytes) in bucketFiles(bucket, of: index, plan: plan) { files[path] = bytes }
        }
        return files
    }

    /// The bucket a bucket file (`works/<bucket>.jsonl`, `gallery/<bucket>.html`) is of; nil for
    /// any other path.
    package static func bucket(ofFile path: String) -> Int? {
        let name: Substring
        if path.hasPrefix("\(worksFolder)/"), path.hasSuffix(".jsonl") {
            name = path.dropFirst(worksFolder.count + 1).dropLast(6)
        } else if path.hasPrefix("\(galleryFolder)/"), path.hasSuffix(".html") {
            name = path.dropFirst(galleryFolder.count + 1).dropLast(5)
        } else {
            return nil
        }
        guard name.count == 3, isIndexFile(path) else { return nil }
        return Int(name, radix: 16)
    }
}
