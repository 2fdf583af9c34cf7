import ArtpipeRuntime
import KafkaClient
import Logging
import PipelineContract
import Synchronization

/// Which steps of the cursor chains in each partition of `artpipe.page-requests` are already
/// published, so that however often a request is handled (a replay, a redelivery after a
/// crash, a lost partition) the request after it is published once.
///
/// Every step of a chain lives in the partition its first request landed in, and a partition
/// is handled by one worker at a time, in offset order. When a worker gets a partition (a new
/// lease), its first cursor-paged request makes it read the partition from there to the end
/// and note every step: a request it handles from then on has its successor, if one was
/// published, after it, so in that range or among the steps it publishes itself. Nothing is kept from one lease to the
/// next, so a replay, a rebalance or another instance's work never leaves it a stale view.
package final class CursorChains: Sendable {
    /// Reads the steps published in a partition, from an offset to its end.
    package typealias Scan = @Sendable (_ partition: Int32, _ fromOffset: Int64) async throws -> Set<ChainStep>

    private struct Known {
        /// Held, not just identified: a freed lease's address may be reused by the next one.
        var lease: KafkaPartitionLease
        var steps: Set<ChainStep>
    }

    private let scan: Scan
    private let known = Mutex<[Int32: Known]>([:])

    package init(scan: @escaping Scan) {
        self.scan = scan
    }

    /// Reads the steps from `artpipe.page-requests` itself, outside any group.
    package convenience init(client: KafkaClientConfiguration, timeout: Duration = .seconds(120), logger: Logger) {
        self.init { partition, offset in
            let steps = Mutex<Set<ChainStep>>([])
            try await KafkaTopicSnapshot.scan(
                ArtpipeTopic.pageRequests, from: [partition: offset], configuration: client, timeout: timeout,
                logger: logger
            ) { message in
                guard let text = message.headers.value(of: ChainStep.header), let step = ChainStep(text: text) else {
                    return
                }
                steps.withLock { _ = $0.insert(step) }
            }
            return steps.withLock { $0 }
        }
    }

    /// Makes sure the steps of the message's partition are known for this lease, read from
    /// the first cursor-paged message handled under it: every message handled after it, and
    /// so every successor one of them has, lies at or after it.
    func load(for message: KafkaConsumerMessage, lease: KafkaPartitionLease) async throws {
        guard known.withLock({ $0[message.partition]?.lease !== lease }) else { return }
        let steps = try await scan(message.partition, message.offset)
        known.withLock { $0[message.partition] = Known(lease: lease, steps: steps) }
    }

    /// Keeps of `candidates` the steps not yet published in `partition` and counts them as
    /// published: the caller publishes them with the outputs of the message it handles. Outputs
    /// that never make it end the lease (the next one reads the partition again) or send the
    /// message to the dead letters, where its chain ends as it would without this.
    func claim(_ candidates: [ChainStep], in partition: Int32) -> [ChainStep] {
        known.withLock { known in
            guard known[partition] != nil else { return candidates }
            return candidates.filter { known[partition]!.steps.insert($0).inserted }
        }
    }
}
