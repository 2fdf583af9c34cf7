import ArtpipeTestKit
import Foundation
import IndexWorker
import SampleCollection

/// The suite's clean run, made once: one of each worker, no faults. Its pipeline keeps
/// running so the replay test can use it; its bytes are what every faulty run must match.
actor ReferenceRun {
    static let shared = ReferenceRun()

    static var configuration: SampleCollection.Configuration {
        var configuration = SampleCollection.Configuration()
        configuration.seed = 7
        configuration.pages = 6
        configuration.pageSize = 20
        configuration.brokenImageRate = 0.08
        return configuration
    }

    struct Result: Sendable {
        let sample: SampleServerHandle
        let run: PipelineRun
        let index: ArtistIndex
        let bytes: [UInt8]
    }

    private var result: Result?

    func get() async throws -> Result {
        if let result { return result }
        let sample = try await SampleServerHandle.start(Self.configuration)
        let run = try PipelineRun(sample: sample)
        try run.startWorkers()
        try await run.crawl()
        let (index, bytes) = try await run.waitForCompletion()
        let made = Result(sample: sample, run: run, index: index, bytes: bytes)
        result = made
        return made
    }
}
