/// What the published files are rendered from: totals, crawls, the artists in index order with
/// their work counts, and any artist's works when asked. An ``ArtistIndex`` gives it, and so does
/// a ``ShardView``, which holds the works of the buckets being rendered only.
struct IndexContent: Sendable {
    struct Artist: Sendable {
        var name: String
        var workCount: Int
        /// The name's collation key, where the caller has it already: its letter is read from it.
        var collationKey: String? = nil
    }

    var totals: ArtistIndex.Totals
    var crawls: [ArtistIndex.Crawl]
    var artists: [Artist]
    private let works: @Sendable (_ artist: Int, _ range: Range<Int>) -> [ArtistIndex.Work]

    init(
        totals: ArtistIndex.Totals, crawls: [ArtistIndex.Crawl], artists: [Artist],
        works: @escaping @Sendable (_ artist: Int, _ range: Range<Int>) -> [ArtistIndex.Work]
    ) {
        (self.totals, self.crawls, self.artists, self.works) = (totals, crawls, artists, works)
    }

    init(_ index: ArtistIndex) {
        self.init(
            totals: index.totals, crawls: index.crawls,
            artists: index.artists.map { Artist(name: $0.name, workCount: $0.works.count) },
            works: { Array(index.artists[$0].works[$1]) })
    }

    /// The works at `range` of the artist at `artist` in ``artists``, in index order.
    func works(of artist: Int, _ range: Range<Int>) -> [ArtistIndex.Work] { works(artist, range) }

    /// Every work, as an ``ArtistIndex``.
    var index: ArtistIndex {
        ArtistIndex(
            schema: ArtistIndex.schemaName, totals: totals, crawls: crawls,
            artists: artists.enumerated().map { position, artist in
                ArtistIndex.Artist(name: artist.name, works: works(of: position, 0..<artist.workCount))
            })
    }
}
