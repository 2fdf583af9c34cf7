import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPTestKit
import PipelineContract
import SampleImages
import Testing

/// A LIDO repository, served by an independent OAI-PMH server, with one hostile record on each
/// of its five pages: the whole pipeline as `artpipe` processes.
@Suite("A hostile record", .serialized, .timeLimit(.minutes(6)))
struct HostileRecordTests {
    @Test(
        "Int.min, 200,000-deep XML (1.4 MB), bytes that are not UTF-8, 1,000 attributes, a 950 KB title: the fetch worker stays up, every other record is indexed, each unreadable one is a dead letter status names"
    )
    func oneOnEveryPage() async throws {
        let sample = try await SampleServerHandle.start(IncrementalHarvestTests.configuration)
        defer { Task { await sample.stop() } }
        let image = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("hostile") + ".jpg")
        try Data(try SampleImage.noisy(width: 240, height: 160, seed: 11)).write(to: image)
        let repository = try await OAIRepoServer(
            records: 250,
            arguments: [
                "--formats", "lido", "--images-here", image.path, "--hostile-every", "50", "--identifier-prefix",
                "oai:hostile.example:",
            ])
        defer { repository.stop() }
        let run = try PipelineRun(sample: sample, source: "rijksmuseum-oai")
        defer { run.killWorkers() }
        try run.startWorkers()
        let fetchWorker = try #require(run.workers["fetch-worker"]?.first)
        try await run.crawl(crawlId: "lido", source: "oai-pmh", extra: ["--query", "endpoint=\(repository.endpoint)"])
        let (index, _) = try await run.waitForCompletion(crawlId: "lido", expectedPages: 5)

        // Record 25 (its image measured Int.min wide) is read; 75, 125, 175 and 225 cannot be.
        #expect(index.totals.works == 246)
        let works = index.artists.flatMap(\.works)
        let measured = try #require(works.first { $0.recordId == "oai:hostile.example:200000025" })
        #expect(measured.thumbnailStatus == "ok", "the record measured Int.min wide has its image")
        #expect(fetchWorker.isRunning, "the fetch worker died: \(fetchWorker.keptLog(as: "fetch-worker"))")
        let status = try await run.status()
        #expect(status.contains("dead letters: 4 (4 of them single unreadable records"), "\(status)")
        for number in [75, 125, 175, 225] {
            #expect(status.contains("  unreadable oai:hostile.example:\(200_000_000 + number) (page "), "\(status)")
        }
        // Each reason quotes its record, not the answer's start.
        #expect(status.contains("not UTF-8"), "\(status)")
        #expect(status.contains("nest deeper than 256"), "\(status)")
        #expect(status.contains("has more than 256 attributes"), "\(status)")
        #expect(status.contains("its title is 950000 bytes"), "\(status)")

        // Again, as an operator replays: the fetch group back to the start, a new fetch worker
        // meets every hostile page a second time, stays up, and each dead letter counts once.
        #expect(try await run.stopWorkers(["fetch-worker"]).isEmpty)
        let replay = try ChildProcess(
            "artpipe",
            [
                "replay", "--brokers", run.brokers, "--group", "artpipe-fetch", "--topic",
                ArtpipeTopic.pageRequests, "--to-earliest", "--execute",
            ])
        #expect(try await replay.waitForExit(timeout: .seconds(90)) == 0, "\(replay.stderr)")
        let again = try run.start("fetch-worker")
        try await run.waitUntilCaughtUp(groups: ["artpipe-fetch"])
        try await waitUntil("the dead letters sent again to be read", timeout: .seconds(60)) {
            try await run.status().contains("dead letters: 4 (4 of them single unreadable records; 8 messages")
        }
        #expect(again.isRunning, "the fetch worker died on the replay: \(again.keptLog(as: "fetch-worker"))")
        let (replayed, _) = try await run.waitForCompletion(crawlId: "lido", expectedPages: 5)
        #expect(replayed.totals.works == 246)
        try await run.expectCleanStop()
    }
}
