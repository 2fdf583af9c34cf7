/// The artist stage's state for one shard: every work of the shard's artists, by work key, as
/// `artpipe.index-artists` holds them (its changelog: a row per work, a tombstone when a work
/// leaves the shard), and the shard's part of the index they make.
package struct ShardWorks: Sendable, Equatable {
    /// A work's row: the name it is grouped under and its line.
    package struct Row: Codable, Sendable, Equatable {
        package var artist: String
        package var work: ArtistIndex.Work

        package init(artist: String, work: ArtistIndex.Work) {
            (self.artist, self.work) = (artist, work)
        }
    }

    package let shard: Int
    package private(set) var rows: [WorkKey: Row] = [:]

    package init(shard: Int) {
        self.shard = shard
    }

    /// Applies a row read from the topic; nil is a tombstone. Returns the artists whose works
    /// changed, whose buckets are to be rendered again.
    @discardableResult
    package mutating func apply(_ work: WorkKey, _ row: Row?) -> Set<String> {
        let before = rows[work]
        guard before != row else { return [] }
        rows[work] = row
        return Set([before?.artist, row?.artist].compactMap { $0 })
    }

    /// By object number; two works with one (records of two sources) by record id, then page id.
    static func workOrder(_ a: ArtistIndex.Work, _ b: ArtistIndex.Work) -> Bool {
        let (keyA, keyB) = (
            [a.objectNumber, a.recordId ?? "", a.pageId], [b.objectNumber, b.recordId ?? "", b.pageId]
        )
        return keyA.lexicographicallyPrecedes(keyB) { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// The shard's artists and their works, in index order: what its buckets and summary are made from.
    package var index: ArtistIndex {
        var groups: [String: [ArtistIndex.Work]] = [:]
        for row in rows.values { groups[ArtistIndex.groupName(row.artist), default: []].append(row.work) }
        let artists = groups.map { name, works in
            (
                key: ArtistIndex.collationKey(name),
                artist: ArtistIndex.Artist(
                    name: name,
                    works: works.sorted(by: Self.workOrder))
            )
        }.sorted { ArtistIndex.artistOrder($0.artist.name, $0.key, $1.artist.name, $1.key) }.map(\.artist)
        return ArtistIndex(
            schema: ArtistIndex.schemaName,
            totals: ArtistIndex.Totals(
                artists: artists.count, works: rows.count, pages: 0, failedPages: 0, thumbnails: [:]),
            crawls: [], artists: artists)
    }
}
