import ArtpipeTestKit
import Foundation
import HTTPTestKit
import IndexWorker
import SampleCollection

/// The suite's clean run, made once: one of each worker, no faults. Its bytes are what every
/// faulty run must match. Its workers and broker stop once it is made (only the in-process
/// sample server stays, shared by the runs that compare against it).
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
        let output: URL
        let index: ArtistIndex
        let files: PublishedFiles
        let status: String
    }

    private var result: Result?

    func get() async throws -> Result {
        if let result { return result }
        let sample = try await SampleServerHandle.start(Self.configuration)
        let run = try PipelineRun(sample: sample)
        defer { run.killWorkers() }
        try run.startWorkers()
        try await run.crawl()
        let (index, files) = try await run.waitForCompletion()
        // Stopped workers have committed everything they handled: the lag is 0 for certain.
        let failures = try await run.stopWorkers()
        guard failures.isEmpty else { throw DeadlineExceeded(description: "the reference run's workers: \(failures)") }
        let status = try await run.status()
        await run.shutdown()
        let made = Result(sample: sample, output: run.output, index: index, files: files, status: status)
        result = made
        return made
    }
}
