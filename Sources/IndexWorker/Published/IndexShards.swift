/// Which copy's files are which, when the index is split over `count` shards (the partition
/// count of `artpipe.index-artists`; docs/architecture.md, "The index at scale").
///
/// An artist belongs to the shard of its home bucket (its first slice's), and the buckets of
/// its further slices are chosen among those of the same shard, so every bucket file, with all
/// the slices in it, has one owner. With one shard every bucket is the one
/// ``IndexLayout/bucket(of:slice:)`` gives: the layout of a single copy.
package struct IndexShards: Sendable, Equatable {
    package let count: Int

    package init(count: Int) {
        precondition((1...IndexLayout.bucketCount).contains(count), "1 to \(IndexLayout.bucketCount) shards")
        self.count = count
    }

    package static let one = IndexShards(count: 1)

    /// The shard that owns a bucket's files.
    package func shard(ofBucket bucket: Int) -> Int { bucket % count }

    /// The shard that owns an artist's works.
    package func shard(ofArtist artist: String) -> Int {
        shard(ofBucket: IndexLayout.bucket(of: artist, slice: 0))
    }

    /// The bucket of an artist's slice: the layout's hash, moved within its run of `count`
    /// buckets to the one of the artist's shard (back a run at the end of the buckets).
    package func bucket(of artist: String, slice: Int) -> Int {
        let hashed = IndexLayout.bucket(of: artist, slice: slice)
        guard slice > 0, count > 1 else { return hashed }
        let home = shard(ofArtist: artist)
        let moved = hashed - hashed % count + home
        return moved < IndexLayout.bucketCount ? moved : moved - count
    }
}
