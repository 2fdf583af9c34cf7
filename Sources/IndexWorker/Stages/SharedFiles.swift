import Logging

/// The files that need every artist (`index.json`, `index.html`, the letter pages and the lists
/// of every artist), as this copy assembles them from the summaries: what its last assembly
/// showed, the artists, letter pages and lists kept between assemblies so the next makes only
/// what changed, and the writing of the files whose bytes differ (the manifest last), the
/// removal of shared files no assembly names, and the record of what they were built from.
///
/// Not locked: ``ShardPublisher`` uses it under its round's lock, with the ``KnownOutput`` it
/// shares. Its calls block on the output.
final class SharedFiles: @unchecked Sendable {
    private let known: KnownOutput
    private let summaries: IndexSummaries
    private let layout: IndexShards
    /// Where the gallery is served, for its sitemap; nil: no sitemap.
    private let site: SiteAddress?
    private let logger: Logger
    /// What the last assembly showed (nil: none since this copy last took shard 0): the shards'
    /// summaries but their positions, the page summaries but their ends, the files' paths. A
    /// position that alone moved changes no shared file.
    private var lastShown: (shards: [ShardSummary], pages: [PagesSummary], paths: Set<String>)?
    /// The artists of its last assembly, so the next sorts and renders only those that changed.
    private let assembledArtists = AssembledArtists()
    /// The letter pages of its last assembly, so the next makes only those that changed.
    private let letterPages = LetterPages()
    /// The runs of its last assembly's lists of every artist, so the next joins only those that changed.
    private let artistLists = ArtistLists()

    init(known: KnownOutput, summaries: IndexSummaries, layout: IndexShards, site: SiteAddress? = nil, logger: Logger) {
        (self.known, self.summaries, self.layout, self.site, self.logger) = (known, summaries, layout, site, logger)
    }

    /// The paths of the last assembly when it showed `shards` and `pages` (positions and ends
    /// aside): nothing to assemble, its stray files aside.
    func shown(shards: [ShardSummary], pages: [PagesSummary]) -> Set<String>? {
        forgetIfReplaced()
        guard let shown = lastShown, shown.shards == shards.map(\.withoutPosition),
            shown.pages == pages.map(\.pagesOnly)
        else { return nil }
        return shown.paths
    }

    /// Assembles the shared files from `shards` and `pages`, built from the summaries
    /// `assembledFrom`, unless that would take the output's record back: a copy's first
    /// assembly may show the summaries already recorded (it writes only files whose bytes
    /// differ, so shared files replaced behind the record's back are mended, never taken back).
    /// The same summaries as the last assembly: nothing rendered, the record moved on. Returns
    /// how many files were written or removed.
    func assemble(shards: [ShardSummary], pages: [PagesSummary], from assembledFrom: SummaryVersions) throws -> Int {
        forgetIfReplaced()
        let recorded = try summaries.assembled()
        guard assembledFrom.supersedes(recorded) || (lastShown == nil && assembledFrom.covers(recorded)) else {
            return 0
        }
        if let paths = shown(shards: shards, pages: pages) {
            // The same files again: not rendered (a tenth of a second at a million works).
            let removed = try removeStray(keeping: paths)
            try summaries.recordAssembled(assembledFrom)
            return removed
        }
        let files = IndexAssembly.sharedFiles(
            shards: shards, pages: pages, layout: layout, artists: assembledArtists, letterPages: letterPages,
            artistLists: artistLists, site: site)
        var changed: [KnownOutput.Change] = []
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            if let change = try known.change(bytes, at: path) { changed.append(change) }
        }
        // The manifest last, on its own: what it names is there before it names it.
        let manifest = changed.filter { $0.path == IndexLayout.manifestPath }
        var count = try known.write(changed.filter { $0.path != IndexLayout.manifestPath })
        count += try known.write(manifest)
        count += try removeStray(keeping: Set(files.keys))
        try summaries.recordAssembled(assembledFrom)
        lastShown = (shards.map(\.withoutPosition), pages.map(\.pagesOnly), Set(files.keys))
        logger.debug("shared index files assembled", metadata: ["files": "\(count)"])
        return count
    }

    /// A shared file replaced, brought back or removed by another writer (a copy that stalled
    /// mid-write): what this copy showed and knew of them is forgotten, so the next assembly
    /// renders them whole and writes every one whose bytes differ.
    private func forgetIfReplaced() {
        guard known.sharedReplaced else { return }
        logger.info(
            "a shared index file is not as this copy last wrote, read or removed it: assembling the shared files anew")
        forget()
    }

    /// Removes the index files listed that are no bucket's and not among the shared `paths`. A
    /// sitemap only where this copy writes one (a site given): one of yours, or the last one
    /// written before the site was taken away, stays for you to keep or remove.
    func removeStray(keeping paths: Set<String>) throws -> Int {
        var count = 0
        // The listing holds every bucket's files: the few others are picked out before sorting.
        let strays = try known.listed().keys.filter {
            !paths.contains($0) && IndexLayout.bucket(ofFile: $0) == nil && (site != nil || !Sitemap.isSitemapFile($0))
        }
        for path in strays.sorted() {
            try known.remove(path)
            count += 1
        }
        return count
    }

    /// Forgets what its assemblies showed and knew of the shared files: while another copy
    /// holds shard 0 it writes them, and a copy that takes shard 0 again reads them anew rather
    /// than trust what they held when it last wrote them.
    func forget() {
        guard lastShown != nil || known.sharedReplaced else { return }
        lastShown = nil
        known.forgetShared()
        assembledArtists.forget()
        letterPages.forget()
        artistLists.forget()
    }
}
