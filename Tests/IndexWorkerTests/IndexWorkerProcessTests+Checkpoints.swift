import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import KafkaTestKit
import ObjectStorage
import PipelineContract
import Testing

extension IndexWorkerProcessTests {
    /// 150 pages of 20 works, then a second version of page 3 without its last five works.
    static var checkpointPages: [Page] {
        (1...150).map { checkpointPage($0) } + [checkpointPage(3, works: 15)]
    }

    /// Page `number` of the checkpoint tests' query, with its first `works` works.
    static func checkpointPage(_ number: Int, works: Int = 20) -> Page {
        Page(
            request: PageRequest(
                crawlId: "kept", source: "rijksmuseum", query: ["s": "artist"], page: number, pageSize: 20),
            total: 3_000,
            artworks: (0..<works).map { position in
                let serial = (number - 1) * 20 + position
                return Artwork(
                    objectNumber: "KP-\(serial)", title: "Work \(serial)", artist: "Artist \(serial / 23)",
                    imageURL: nil, width: nil, height: nil, position: position)
            })
    }

    /// The lines a copy logged with `message`.
    static func logged(_ message: String, by worker: ChildProcess) -> [Substring] {
        (worker.stdout + worker.stderr).split(separator: "\n").filter { $0.contains(message) }
    }

    @Test(
        "a copy stopped cleanly and started again on its --state keeps its three files and reads only what came after: into an empty output, the one pass's bytes; into its own, its shards' files kept and only a new page's rendered, to the same bytes, and kept again at each restart after; a file cut short, or the folder on another cluster, is made afresh and restored in full, to the same bytes; given a --site-url, every shard rendered whole, to that site's bytes, then kept at a restart with the same"
    )
    func restartOnItsState() async throws {
        let pages = Self.checkpointPages
        let first = try Setup(pages: pages)
        // A name as operators give them: spaces, a dot, an accent.
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "index state é.v2 \(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let files = ["pages.sqlite", "works.sqlite", "lines.sqlite"]
        func checkpoints() -> [String] {
            files.filter {
                FileManager.default.fileExists(atPath: state.appendingPathComponent("\($0).checkpoint").path)
            }
        }

        // The first 100 pages, indexed, then a clean stop: each file sealed with its checkpoint.
        try await first.cluster.producer.send(Array(first.messages.prefix(100)))
        let initial = try first.startWorker(flags: ["--state", state.path])
        defer { initial.stop() }
        try await waitUntil("the first 2,000 works", timeout: .seconds(120)) {
            (try? PublishedIndex.manifest(in: first.output))?.totals.works == 2_000
        }
        initial.signal(SIGTERM)
        #expect(try await initial.waitForExit(timeout: .seconds(40)) == 0)
        #expect(checkpoints() == files, "\(initial.logSummary())")

        // The rest, page 3's second version among them, indexed by another copy while this one
        // is away (a rolling update); then this one again on its folder, publishing into an
        // empty output: what it kept and what it read of the changelogs after make the index.
        try await first.cluster.producer.send(Array(first.messages.dropFirst(100)))
        let interim = try first.startWorker()
        defer { interim.stop() }
        try await first.waitForExpectedIndex(workers: [interim])
        interim.signal(SIGTERM)
        #expect(try await interim.waitForExit(timeout: .seconds(40)) == 0)
        let again = try Setup(pages: pages, broker: first.cluster)
        let restarted = try again.startWorker(flags: ["--state", state.path])
        defer { restarted.stop() }
        try await again.waitForExpectedIndex(workers: [restarted])
        #expect(checkpoints().isEmpty, "taken at start: the files are written again")
        #expect(
            Self.logged("state file kept from a clean stop", by: restarted).count == 3, "\(restarted.logSummary())")
        #expect(Self.logged("state file made afresh", by: restarted).isEmpty, "\(restarted.logSummary())")
        #expect(
            Self.logged("kept.partitions", by: restarted).count == 3,
            "each stage's restore read on from its checkpoint: \(restarted.logSummary())")
        let restored = Self.logged("changelog restored", by: restarted)
        #expect(
            restored.count == 3 && restored.allSatisfy { !$0.contains(#""rows":"0""#) },
            "each read what the other copy wrote after the checkpoint: \(restored)")
        #expect(Self.logged("keeps its published files", by: restarted).isEmpty, "another output: rendered whole")
        restarted.signal(SIGTERM)
        #expect(try await restarted.waitForExit(timeout: .seconds(40)) == 0)
        #expect(checkpoints() == files)

        // Again on its folder, into the output it published, where another writer has since
        // written one shard's summary and another shard's works file: the third, which the new
        // pages change, keeps its files and renders only those changes; the other two are
        // rendered whole; the one pass's bytes.
        let more = pages + [Self.checkpointPage(151), Self.checkpointPage(5, works: 12)]
        let grown = try Setup(pages: more, output: again.output, broker: first.cluster)
        let layout = IndexShards(count: 3)
        // The artists of page 151 and of page 5's works, kept or gone.
        let changedShards = Set(["Artist 3", "Artist 4", "Artist 130", "Artist 131"].map(layout.shard(ofArtist:)))
        let keptShard = try #require(changedShards.min())
        let (summaryMoved, fileReplaced) = (keptShard == 0 ? 1 : 0, keptShard == 2 ? 1 : 2)
        let storedSummaries = IndexSummaries(output: grown.store)
        var otherWriters = try #require(try storedSummaries.stored(shard: summaryMoved)).summary
        otherWriters.position = (otherWriters.position ?? 0) + 1
        try storedSummaries.write(otherWriters)
        let replacedFile = try #require(
            try grown.store.versions(in: "works").keys.sorted().first {
                IndexLayout.bucket(ofFile: $0).map(layout.shard(ofBucket:)) == fileReplaced
            })
        try grown.store.write(
            try #require(try grown.store.read(replacedFile)) + Array("\n".utf8), to: replacedFile, durable: true)
        try await first.cluster.producer.send(Array(grown.messages.suffix(2)))
        let resumed = try grown.startWorker(flags: ["--state", state.path])
        defer { resumed.stop() }
        try await grown.waitForExpectedIndex(workers: [resumed])
        let partition = { (shard: Int) in #""kafka.partition":"\#(shard)""# }
        let kept = Self.logged("keeps its published files", by: resumed)
        let otherSummary = Self.logged("no longer holds the summary its checkpoint names", by: resumed)
        let otherFile = Self.logged("its files in the output changed since it published them", by: resumed)
        #expect(
            kept.count == 1 && kept[0].contains(partition(keptShard)) && otherSummary.count == 1
                && otherSummary[0].contains(partition(summaryMoved)) && otherFile.count == 1
                && otherFile[0].contains(partition(fileReplaced)),
            "\(resumed.logSummary())")
        resumed.signal(SIGTERM)
        #expect(try await resumed.waitForExit(timeout: .seconds(40)) == 0)
        #expect(checkpoints() == files)

        // Twice more with nothing new: every shard keeps its files both times, so a shard taken
        // up unchanged is vouched for again by the stop after.
        for time in ["second", "third"] {
            let quiet = try grown.startWorker(flags: ["--state", state.path])
            defer { quiet.stop() }
            try await grown.waitForExpectedIndex(workers: [quiet])
            try await waitUntil("each shard looked at, the \(time) quiet time", timeout: .seconds(30)) {
                Self.logged("a shard kept from a clean stop", by: quiet).count == 3
            }
            #expect(
                Self.logged("keeps its published files", by: quiet).count == 3,
                "the \(time) quiet time: \(quiet.logSummary())")
            quiet.signal(SIGTERM)
            #expect(try await quiet.waitForExit(timeout: .seconds(40)) == 0)
        }

        // Given a site's address: every shard is rendered whole again, since its pages now name
        // it (Open Graph), and the one pass's bytes for that site, its sitemap among them.
        var served = grown
        let site = "https://gallery.example.org/art/"
        try served.serve(at: site)
        let addressed = try served.startWorker(flags: ["--state", state.path, "--site-url", site])
        defer { addressed.stop() }
        try await served.waitForExpectedIndex(workers: [addressed])
        #expect(
            Self.logged("another --site-url", by: addressed).count == 1
                && Self.logged("keeps its published files", by: addressed).isEmpty,
            "\(addressed.logSummary())")
        #expect(served.expected.files.keys.contains("sitemap.xml"))
        addressed.signal(SIGTERM)
        #expect(try await addressed.waitForExit(timeout: .seconds(40)) == 0)
        // Again with the same site: each shard keeps the files it published for it.
        let sameSite = try served.startWorker(flags: ["--state", state.path, "--site-url", site])
        defer { sameSite.stop() }
        try await served.waitForExpectedIndex(workers: [sameSite])
        try await waitUntil("each shard looked at, with the same site", timeout: .seconds(30)) {
            Self.logged("a shard kept from a clean stop", by: sameSite).count == 3
        }
        #expect(
            Self.logged("keeps its published files", by: sameSite).count == 3
                && Self.logged("another --site-url", by: sameSite).isEmpty,
            "\(sameSite.logSummary())")
        sameSite.signal(SIGTERM)
        #expect(try await sameSite.waitForExit(timeout: .seconds(40)) == 0)

        // The works' file cut short after its seal: refused, made afresh, restored in full.
        let works = state.appendingPathComponent("works.sqlite")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: works.path)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: works)
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let cut = try Setup(pages: more, broker: first.cluster)
        let refused = try cut.startWorker(flags: ["--state", state.path])
        defer { refused.stop() }
        try await cut.waitForExpectedIndex(workers: [refused])
        #expect(
            Self.logged("state file made afresh", by: refused).contains {
                $0.contains("works.sqlite") && $0.contains("cut")
            },
            "\(refused.logSummary())")
        #expect(Self.logged("state file kept from a clean stop", by: refused).count == 2, "\(refused.logSummary())")
        refused.signal(SIGTERM)
        #expect(try await refused.waitForExit(timeout: .seconds(40)) == 0)
        await first.cluster.shutdown()

        // The folder on another cluster holding the same pages: every file made afresh.
        let other = try Setup(pages: pages)
        try await other.cluster.producer.send(other.messages)
        let elsewhere = try other.startWorker(flags: ["--state", state.path])
        defer { elsewhere.stop() }
        try await other.waitForExpectedIndex(workers: [elsewhere])
        #expect(Self.logged("state file made afresh", by: elsewhere).count == 3, "\(elsewhere.logSummary())")
        elsewhere.signal(SIGTERM)
        #expect(try await elsewhere.waitForExit(timeout: .seconds(40)) == 0)
        await other.cluster.shutdown()
    }
}
