import Testing

@testable import StreamTasks

@Suite("A stage partition's life")
struct StagePartitionTests {
    @Test("restoring, then catching up, then ready; a failed restore holds it until one succeeds; nothing goes back")
    func life() {
        var partition = StagePartition(
            epoch: AssignmentEpoch(3), readiness: PartitionReadiness(endOffsets: ["in": 10]), settled: ["in": 2])
        #expect(partition.state == .restoring && !partition.isRestored)
        partition.read("in", upTo: 10)
        #expect(partition.state == .restoring, "read to its end, but not restored: not ready")
        partition.restoreFailed("broker down")
        #expect(partition.state == .held(reason: "broker down") && !partition.isRestored)
        partition.restoring()
        #expect(partition.state == .restoring)
        partition.restored()
        #expect(partition.state == .ready, "restored, and already read to where it stood")
        partition.restoreFailed("late")
        partition.restoring()
        #expect(partition.state == .ready, "a restore that fails after one succeeded changes nothing")

        var catching = StagePartition(epoch: AssignmentEpoch(4), readiness: PartitionReadiness(endOffsets: ["in": 10]))
        catching.restored()
        #expect(catching.state == .catchingUp && catching.isRestored && !catching.isReady)
        catching.read("in", upTo: 9)
        #expect(catching.state == .catchingUp)
        catching.read("in", upTo: 10)
        #expect(catching.isReady)
        catching.settle("in", upTo: 7)
        catching.settle("in", upTo: 5)
        #expect(catching.settled["in"] == 7, "settled never goes back")
    }
}
