import Testing

@testable import StreamTasks

@Suite("When a partition may publish")
struct PartitionReadinessTests {
    @Test(
        "ready once every topic is read to its end offset at the assignment, not before; what came later does not hold it"
    )
    func readToAssignment() {
        var readiness = PartitionReadiness(endOffsets: ["artpipe.index-artists": 120, "artpipe.index-works": 0])
        #expect(!readiness.isReady && readiness.remaining == 120)
        readiness.advance("artpipe.index-artists", to: 119)
        #expect(!readiness.isReady && readiness.remaining == 1)
        // A compacted log's last offsets may be gone: the position passes the target all the same.
        readiness.advance("artpipe.index-artists", to: 400)
        #expect(readiness.isReady && readiness.remaining == 0)
        // A position never goes back (a seek for a refetch does not make the partition unready).
        readiness.advance("artpipe.index-artists", to: 10)
        #expect(readiness.isReady)
        #expect(PartitionReadiness(endOffsets: [:]).isReady)
    }
}
