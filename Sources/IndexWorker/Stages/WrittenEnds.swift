import KafkaClient
import StreamTasks
import Synchronization

/// Where one of the index's topics ends, as far as the rows this copy's stages wrote go: the
/// broker's ends asked once a stage assignment (what came before it, this copy's or another's),
/// and from then on the offsets this copy's producer had acknowledged (``KafkaAcknowledgedOffsets``),
/// whichever is further. A new page's path then asks the broker nothing: each ListOffsets took
/// 113-298 ms at ten million works on Tansu, whose fetches and offset lists grow with a
/// partition's batches.
///
/// Enough for an end that must cover rows this copy wrote under the assignment it names: the
/// rows of the pages it holds, or of every work partition when it holds them all.
final class WrittenEnds: Sendable {
    private let topic: String
    private let acknowledged: KafkaAcknowledgedOffsets?
    /// The broker's ends, and the assignment they were asked under.
    private let baseline = Mutex<(epoch: AssignmentEpoch, ends: [Int64])?>(nil)
    private let asked = Atomic<Int>(0)

    init(topic: String, acknowledged: KafkaAcknowledgedOffsets?) {
        (self.topic, self.acknowledged) = (topic, acknowledged)
    }

    /// How many times the broker was asked: for tests.
    var questionsAsked: Int { asked.load(ordering: .relaxed) }

    /// The topic's ends for rows written under assignment `epoch`; `ask` asks the broker,
    /// the first time under a epoch and whenever the acknowledgements cannot say.
    func ends(under epoch: AssignmentEpoch, ask: () async throws -> [Int64]) async throws -> [Int64] {
        if let known = baseline.withLock({ $0 }), known.epoch == epoch,
            let written = acknowledged?.ends(of: topic, partitions: known.ends.count)
        {
            return zip(known.ends, written).map { max($0, $1) }
        }
        asked.add(1, ordering: .relaxed)
        let ends = try await ask()
        baseline.withLock { $0 = (epoch, ends) }
        return ends
    }
}
