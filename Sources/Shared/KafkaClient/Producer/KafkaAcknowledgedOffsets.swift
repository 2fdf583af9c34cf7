import CKafka
import Glibc
import Synchronization

/// The highest offset the brokers acknowledged for each partition a producer wrote to, from its
/// delivery reports: where a topic ends, as far as this producer's own records go, without a
/// ListOffsets request (113-298 ms each at ten million works on Tansu, on a new page's path).
///
/// Only what the producers given it wrote (``KafkaProducer/init(configuration:linger:acknowledged:logger:)``,
/// from before their first record: one for a copy's three stages); another writer's records
/// are not in it. Told of each delivery by the handle's report callback (``RDKafkaCallbacks``).
package final class KafkaAcknowledgedOffsets: Sendable {
    private struct State {
        /// Each topic written, with each partition's highest offset: a few topics, looked up by
        /// name without making a string of each report's.
        var topics: [(name: String, highest: [Int32: Int64])] = []
        /// A delivery that succeeded without an offset: what this holds cannot be trusted.
        var unknown = false
        var attached = false
    }

    private let state = Mutex(State())

    package init() {}

    /// Called by each producer it reports for, before its first record.
    func attach() {
        state.withLock { $0.attached = true }
    }

    /// A record delivered: from librdkafka's delivery report thread.
    func delivered(_ message: rd_kafka_message_t) {
        guard message.err == RD_KAFKA_RESP_ERR_NO_ERROR, let topic = message.rkt, let name = rd_kafka_topic_name(topic)
        else { return }
        state.withLock { state in
            guard message.offset >= 0 else {
                state.unknown = true
                return
            }
            let index =
                state.topics.firstIndex { $0.name.withCString { strcmp($0, name) == 0 } }
                ?? state.topics.endIndex
            if index == state.topics.endIndex { state.topics.append((String(cString: name), [:])) }
            let highest = state.topics[index].highest[message.partition] ?? -1
            if message.offset > highest { state.topics[index].highest[message.partition] = message.offset }
        }
    }

    /// One past the highest offset acknowledged on each of `topic`'s first `partitions`
    /// partitions (0 where none was), in partition order; nil when no producer reports here, or
    /// one delivery came without its offset.
    package func ends(of topic: String, partitions: Int) -> [Int64]? {
        state.withLock { state in
            guard state.attached, !state.unknown else { return nil }
            var ends = [Int64](repeating: 0, count: partitions)
            for (partition, highest) in state.topics.first(where: { $0.name == topic })?.highest ?? [:]
            where Int(partition) < partitions {
                ends[Int(partition)] = highest + 1
            }
            return ends
        }
    }
}
