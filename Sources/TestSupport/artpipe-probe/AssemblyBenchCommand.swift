import ArgumentParser
import Foundation
import IndexWorker

/// `artpipe-probe assembly`: what the shared files cost a copy that assembles them, without a
/// broker. The shard and page summaries of `produce-pages`' collection (`Artist <serial / 37>`)
/// are made, the shared files assembled once, then once after each new page of 100 works (the
/// next serials: the last artist grows, two or three come), as the publisher does with what it
/// keeps between rounds. Prints the first assembly's time and each later one's, how many files
/// each new page changed, and what reading the shard summaries a page changed costs a copy that
/// waits for them.
struct AssemblyBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assembly", abstract: "Time the assembly of the shared index files after each new page.")

    @Option(help: "Works in the collection before the new pages (37 an artist, 100 a page).")
    var works: Int = 4_000_000
    @Option(help: "Shards (partitions of artpipe.index-artists).")
    var shards: Int = 12
    @Option(help: "New pages, one assembly each.")
    var pages: Int = 10
    @Option(help: "A folder to write the last assembly's files to, to compare.")
    var write: String?

    func run() throws {
        let layout = IndexShards(count: shards)
        var counts: [String: Int] = [:]
        for serial in 0..<works { counts["Artist \(serial / 37)", default: 0] += 1 }
        let pageSummaries = try (0..<shards).map {
            try Self.pagesSummary(partition: $0, of: shards, pages: works / 100)
        }
        let (artists, letterPages, artistLists) = (AssembledArtists(), LetterPages(), ArtistLists())
        let assembler = { (shards: [ShardSummary]) in
            IndexAssembly.sharedFiles(
                shards: shards, pages: pageSummaries, layout: layout, artists: artists, letterPages: letterPages,
                artistLists: artistLists)
        }

        var (elapsed, files) = Self.timed { assembler(summaries(counts, layout)) }
        let bytes = files.values.map(\.count).reduce(0, +)
        print(
            "\(works) works by \(counts.count) artists, \(shards) shards: \(files.count) shared files, \(bytes) bytes")
        print("first assembly: \(Self.milliseconds(elapsed)) ms")

        var (times, reads): ([Duration], [Duration]) = ([], [])
        var changes: [(files: Int, bytes: Int)] = []
        var last = summaries(counts, layout)
        for page in 0..<pages {
            for serial in (works + 100 * page)..<(works + 100 * (page + 1)) {
                counts["Artist \(serial / 37)", default: 0] += 1
            }
            let next = summaries(counts, layout)
            let changed = zip(last, next).filter { $0 != $1 }.map(\.1)
            let encoded = changed.map { IndexSummaries.Stored(sequence: 1, summary: $0).json }
            reads.append(
                try Self.timed {
                    for bytes in encoded where IndexSummaries.Stored(json: bytes) == nil {
                        throw ValidationError("a summary not read back")
                    }
                }.0)
            let before = files
            (elapsed, files) = Self.timed { assembler(next) }
            times.append(elapsed)
            let changedFiles = files.filter { before[$0.key] != $0.value }
            changes.append((changedFiles.count, changedFiles.values.map(\.count).reduce(0, +)))
            last = next
        }
        if let write {
            for (path, bytes) in files {
                let url = URL(fileURLWithPath: write).appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
            }
        }
        let sorted = times.sorted()
        print(
            "assembly after a new page: median \(Self.milliseconds(sorted[sorted.count / 2])) ms, "
                + "max \(Self.milliseconds(sorted.last ?? .zero)) ms (\(pages) pages)")
        let byFiles = changes.sorted { $0.files < $1.files }
        let median = byFiles[byFiles.count / 2]
        print(
            "files a new page changed: median \(median.files) (\(median.bytes) bytes), "
                + "max \(byFiles.last?.files ?? 0) (\(pages) pages)")
        let read = reads.sorted()
        print("reading the shard summaries a page changed: median \(Self.milliseconds(read[read.count / 2])) ms")
    }

    /// Every shard's summary of `counts`, its artists in index order.
    private func summaries(_ counts: [String: Int], _ layout: IndexShards) -> [ShardSummary] {
        var byShard = Array(repeating: [ShardSummary.Artist](), count: layout.count)
        for (name, works) in counts { byShard[layout.shard(ofArtist: name)].append(.init(name: name, works: works)) }
        return byShard.enumerated().map { shard, artists in
            let keyed = artists.map { (key: ArtistIndex.collationKey($0.name), artist: $0) }
                .sorted { ArtistIndex.artistOrder($0.artist.name, $0.key, $1.artist.name, $1.key) }
            let works = artists.map(\.works).reduce(0, +)
            return ShardSummary(shard: shard, artists: keyed.map(\.artist), thumbnails: ["ok": works])
        }
    }

    /// A page partition's summary of the crawl's pages it holds (page `n` in partition `n % count`),
    /// made as its owner stores it.
    private static func pagesSummary(partition: Int, of count: Int, pages: Int) throws -> PagesSummary {
        let numbers = stride(from: partition + 1, through: pages, by: count).map(String.init).joined(separator: ",")
        let json = """
            {"partition":\(partition),"pages":\(pages / count),"failedPages":0,"crawls":[{"crawlId":"bench",\
            "source":"rijksmuseum-oai","query":{"s":"artist"},"firstPageId":"0bench-\(partition)",\
            "total":\(pages * 100),"pagesIndexed":[\(numbers)],"failedPages":[]}]}
            """
        return try JSONDecoder().decode(PagesSummary.self, from: Data(json.utf8))
    }

    private static func timed<T>(_ body: () throws -> T) rethrows -> (Duration, T) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        return (clock.now - start, value)
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(
            format: "%.1f", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
    }
}
