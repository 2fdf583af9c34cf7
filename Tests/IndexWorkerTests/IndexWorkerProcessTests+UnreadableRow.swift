import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import KafkaTestKit
import PipelineContract
import Testing

extension IndexWorkerProcessTests {
    @Test(
        "a line in artpipe.index-artists no build of ours wrote: the running copy dead-letters it, a fresh copy restoring the changelog leaves it out and says so once, and both publish the one pass's bytes"
    )
    func unreadableArtistLine() async throws {
        let setup = try Setup(pages: Array(Self.checkpointPages.prefix(20)))
        try await setup.cluster.producer.send(setup.messages)
        let running = try setup.startWorker()
        defer { running.stop() }
        try await setup.waitForExpectedIndex(workers: [running])

        // A line of a later format (99), for a work no page lists, on shard 0.
        let key = WorkKey(source: "rijksmuseum", id: "UNREADABLE-1", isRecord: false).description
        try await setup.cluster.producer.send([
            KafkaProducerRecord(topic: ArtpipeTopic.indexArtists, partition: 0, key: key, value: [99, 1, 2])
        ])
        let dead = try await readTopic(
            ArtpipeTopic.deadLetters, brokers: setup.cluster.brokers, count: 1, timeout: .seconds(60))
        #expect(dead.map(\.keyString) == [key], "\(running.logSummary())")
        try await setup.waitForExpectedIndex(workers: [running])
        running.signal(SIGTERM)
        #expect(try await running.waitForExit(timeout: .seconds(40)) == 0)

        // A copy on an empty --state, publishing into an empty output: it restores shard 0 from
        // the changelog, the line among its rows.
        let again = try Setup(pages: Array(Self.checkpointPages.prefix(20)), broker: setup.cluster)
        let fresh = try again.startWorker()
        defer { fresh.stop() }
        try await again.waitForExpectedIndex(workers: [fresh])
        let leftOut = Self.logged("changelog rows this build cannot read were left out of the restore", by: fresh)
        #expect(
            leftOut.count == 1 && leftOut[0].contains(#""rows.left.out":"1""#)
                && leftOut[0].contains(#""kafka.topic":"artpipe.index-artists""#), "\(fresh.logSummary())")
        fresh.signal(SIGTERM)
        #expect(try await fresh.waitForExit(timeout: .seconds(40)) == 0)
        await setup.cluster.shutdown()
    }
}
