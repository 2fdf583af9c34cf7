import ArtpipeRuntime
import ArtpipeTestKit
import Foundation
import NIOPosix
import ObjectStorage
import Testing

@testable import ThumbWorker

/// Against moto (PyPI) over HTTP on loopback: a prune's deletes and its fence.
@Suite("A bucket prune's lease", .timeLimit(.minutes(3)))
struct BucketPruneLeaseTests {
    @Test("a prune paused longer than its lease between its checks and its DeleteObjects deletes nothing")
    func pausedPastLease() async throws {
        let store = try await S3TestStore.start(.moto)
        defer { store.stop() }
        let client = S3Client(
            location: try #require(
                try S3Location("s3://prune-lease/site", endpoint: store.endpoint, region: "eu-west-1")),
            credentials: S3CredentialSource(
                fixed: S3Credentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey)),
            logger: .test)
        try await client.createBucket()
        let paths = (0..<5).map { "thumbs/200/0\($0)/SK-A-\($0).v.jpg" }
        for path in paths { try await client.put(path, body: [1, 2, 3], contentType: "image/jpeg") }
        let bucket = BucketOutputStore(client: client)
        let timing = PruneFence.Timing(heartbeatInterval: .seconds(30), leaseDuration: .seconds(1))
        // The prune's calls block, as in `artpipe prune`: on a thread of their own, never the cooperative pool.
        let result = try await NIOThreadPool.withPool(threads: 1) { pool in
            try await pool.runIfActive {
                // Every object unreferenced and older than the cutoff: all are candidates.
                let plan = try BucketPrunePlan(
                    store: bucket, referencedPaths: [], unsettledObjectNumbers: [], cutoff: Date() + 3_600)
                #expect(plan.candidates.count == paths.count)
                return Result {
                    try plan.execute(in: bucket, report: { _ in }, timing: timing) {
                        // Stopped here (a frozen VM, a debugger) for longer than the lease.
                        Thread.sleep(forTimeInterval: 1.5)
                    }
                }
            }
        }
        #expect(throws: ObjectStoreError.self) { try result.get() }
        let error = "\((try? result.get()).map { _ in "none" } ?? String(describing: result))"
        #expect(error.contains("longer than its lease"), "\(error)")
        for path in paths {
            #expect(try await client.head(path) != nil, "\(path) was deleted after the lease ran out")
        }
    }
}
