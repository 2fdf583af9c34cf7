import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPFetching
import HTTPTestKit
import IndexWorker
import KafkaClient
import KafkaTestKit
import PipelineContract
import SampleCollection
import SampleImages
import Testing

/// The museum and two other OAI-PMH repositories, each served by an independent server, into
/// one index: the whole pipeline as `artpipe` processes.
@Suite("A mixed harvest", .serialized, .timeLimit(.minutes(6)))
struct MixedHarvestTests {
    @Test(
        "the museum, a LIDO repository and a day-granularity oai_dc one, two sharing identifiers: one index, artists as each provider names them"
    )
    func museumAndTwoRepositories() async throws {
        let sample = try await SampleServerHandle.start(IncrementalHarvestTests.configuration)
        defer { Task { await sample.stop() } }
        let image = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("provider") + ".jpg")
        try Data(try SampleImage.noisy(width: 240, height: 160, seed: 9)).write(to: image)
        // Their images are on their own hosts (here: each server), as providers' are.
        let lido = try await OAIRepoServer(
            records: 60,
            arguments: [
                "--formats", "lido,oai_dc", "--images-here", image.path, "--unreadable-every", "20",
                "--identifier-prefix", "oai:shared.example:", "--object-number-prefix", "Inv. Nr. é/",
            ])
        defer { lido.stop() }
        let dublinCore = try await OAIRepoServer(
            records: 45,
            arguments: [
                "--formats", "oai_dc", "--granularity", "day", "--images-here", image.path, "--identifier-prefix",
                "oai:shared.example:", "--object-number-prefix", "Gr 1.2 ",
            ])
        defer { dublinCore.stop() }
        let run = try PipelineRun(sample: sample, source: "rijksmuseum-oai")
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        try await run.crawl(crawlId: "lido", source: "oai-pmh", extra: ["--query", "endpoint=\(lido.endpoint)"])
        // Redelivery: a chain's cursors (format, day windows) carried by the messages, not the process.
        try await run.killAndRestart("fetch-worker")
        try await run.crawl(crawlId: "dc", source: "oai-pmh", extra: ["--query", "endpoint=\(dublinCore.endpoint)"])
        try await run.killAndRestart("index-worker")
        _ = try await run.waitForCompletion()
        _ = try await run.waitForCompletion(crawlId: "lido", expectedPages: 2)
        let (index, _) = try await run.waitForCompletion(crawlId: "dc", expectedPages: 1)

        let museum = sample.collection.revision(0).compactMap(\.state.work).count
        // Every 20th LIDO record is in a format no reader takes: SK-A-0, -20, -40.
        #expect(index.totals.works == museum + 57 + 45)
        let works = index.artists.flatMap { artist in artist.works.map { (artist.name, $0) } }
        // Both repositories use one identifier scheme: their records are still two works each.
        let repositories = works.filter { $0.1.recordId?.hasPrefix("oai:shared.example:") == true }
        let lidoWorks = repositories.filter { !$0.0.contains(",") }
        let dcWorks = repositories.filter { $0.0.contains(",") }
        #expect(lidoWorks.count == 57 && dcWorks.count == 45)
        // LIDO's preferred name, oai_dc's creator as written: "Maker 3" and "Maker, 3" stay two artists.
        #expect(lidoWorks.allSatisfy { $0.0 == "Maker \($0.1.objectNumber.last!)" })
        #expect(dcWorks.allSatisfy { $0.0 == "Maker, \($0.1.objectNumber.last!)" })
        #expect(dcWorks.allSatisfy { $0.1.datestamp?.count == 10 }, "the day repository's datestamps")
        // Object numbers with dots, spaces, a slash and an accent, as museums write them: their
        // thumbnails made (waitForCompletion checked every published file against the index).
        #expect(lidoWorks.allSatisfy { $0.1.objectNumber.hasPrefix("Inv. Nr. é/") })
        #expect(dcWorks.allSatisfy { $0.1.objectNumber.hasPrefix("Gr 1.2 ") })
        #expect((lidoWorks + dcWorks).allSatisfy { $0.1.thumbnailStatus == "ok" }, "images from the providers' hosts")
        let thumbnails = (lidoWorks + dcWorks).flatMap { $0.1.thumbnails.values }
        #expect(thumbnails.count >= 57 + 45 && thumbnails.allSatisfy { $0.hasPrefix("thumbs/") })
        #expect(
            thumbnails.allSatisfy { FileManager.default.fileExists(atPath: run.output.appendingPathComponent($0).path) }
        )
        let dead = try await run.status()
        // The fetch worker killed above may have dead-lettered them before it committed: the
        // redelivery sends them again, and they still count once.
        #expect(dead.contains("dead letters: 3 (3 of them single unreadable records"), "\(dead)")
        // Such a redelivery, made sure of: one of them sent again.
        let letters = try await readTopic(
            ArtpipeTopic.deadLetters, brokers: run.brokers, count: 3, timeout: .seconds(60))
        let letter = try #require(letters.first)
        try await run.cluster.producer.send([
            KafkaProducerRecord(
                topic: ArtpipeTopic.deadLetters, key: letter.key, value: letter.value, headers: letter.headers)
        ])
        let again = try await run.status()
        #expect(again.contains("dead letters: 3 (3 of them single unreadable records; "), "\(again)")
        #expect(again.contains("messages, with those sent again after a redelivery)"), "\(again)")
        try await run.expectCleanStop()
    }

    @Test("a repository that keeps no deletions: crawl --reconcile removes exactly the works it no longer lists")
    func reconcile() async throws {
        let sample = try await SampleServerHandle.start(IncrementalHarvestTests.configuration)
        defer { Task { await sample.stop() } }
        let image = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("provider") + ".jpg")
        try Data(try SampleImage.noisy(width: 240, height: 160, seed: 10)).write(to: image)
        let repository = try await OAIRepoServer(
            records: 80,
            arguments: ["--formats", "oai_dc", "--images-here", image.path, "--identifier-prefix", "oai:gone.example:"])
        defer { repository.stop() }
        let run = try PipelineRun(sample: sample, source: "rijksmuseum-oai")
        defer { run.killWorkers() }
        try run.startWorkers()
        let query = ["--query", "endpoint=\(repository.endpoint)"]
        try await run.crawl(crawlId: "repository", source: "oai-pmh", extra: query)
        let (before, _) = try await run.waitForCompletion(crawlId: "repository", expectedPages: 2)
        #expect(before.totals.works == 80)
        let http = HTTPFetcher(configuration: .init(), redaction: SecretRedaction(secrets: []), logger: .test)
        let deleted: [String]
        do {
            deleted = try await repository.control("/control/delete?count=6", http: http)
        } catch {
            try await http.shutdown()
            throw error
        }
        try await http.shutdown()
        try await run.crawl(crawlId: "reconciled", source: "oai-pmh", extra: query + ["--reconcile"])
        try await waitUntil("the index to lose the works no longer listed", timeout: .seconds(120)) {
            await run.manifest?.totals.works == 74
        }
        let (after, _) = try await run.waitForCompletion(crawlId: "repository", expectedPages: 2)
        let ids = { (index: ArtistIndex) in Set(index.artists.flatMap(\.works).compactMap(\.recordId)) }
        #expect(ids(after) == ids(before).subtracting(deleted) && deleted.count == 6)
        try await run.expectCleanStop()
    }
}
