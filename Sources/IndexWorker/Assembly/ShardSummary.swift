/// What the owner of one artist shard says of it, for the files that need every artist
/// (`index.json`, `index.html`, the letter pages, `gallery/artists.js`): each artist's name and
/// count, and its works by thumbnail status. Small: no work is in it.
package struct ShardSummary: Codable, Sendable, Equatable {
    package struct Artist: Codable, Sendable, Equatable {
        package var name: String
        package var works: Int

        package init(name: String, works: Int) {
            (self.name, self.works) = (name, works)
        }
    }

    package var shard: Int
    package var artists: [Artist]
    /// Works by thumbnail status: ok, noImage, failed, pending.
    package var thumbnails: [String: Int]
    /// How far its owner had read the shard's partition of `artpipe.index-artists` when it
    /// took the works summarised here (at least). Nil where not known.
    package var position: Int64?
    /// False while the shard's bucket files are held back: the index is bootstrapping
    /// (``IndexSummaries/isBootstrapped()``) and the output may still hold an older index's.
    /// Nil once they are published.
    package var published: Bool?

    package init(shard: Int, artists: [Artist], thumbnails: [String: Int]) {
        (self.shard, self.artists, self.thumbnails) = (shard, artists, thumbnails)
    }

    /// The summary but its position: what the shared files show of it.
    var withoutPosition: ShardSummary {
        var summary = self
        summary.position = nil
        return summary
    }

    /// The summary of `index`, which holds the shard's artists only.
    package init(shard: Int, index: ArtistIndex) {
        self.shard = shard
        artists = index.artists.map { Artist(name: $0.name, works: $0.works.count) }
        var thumbnails: [String: Int] = [:]
        for work in index.artists.flatMap(\.works) { thumbnails[work.thumbnailStatus, default: 0] += 1 }
        self.thumbnails = thumbnails
    }
}
