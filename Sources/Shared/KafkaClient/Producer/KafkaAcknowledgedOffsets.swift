import CKafka
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
        /// By librdkafka's topic handle, the topic's name and each partition's highest offset.
        var topics: [UInt: (name: String, highest: [Int32: Int64])] = [:]
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
        guard message.err == RD_KAFKA_RESP_ERR_NO_ERROR, let topic = message.rkt else { return }
        let key = UInt(bitPattern: topic)
        state.withLock { state in
            guard message.offset >= 0 else {
                state.unknown = true
                return
            }
            // The name is made once a topic handle: a report is otherwise a lookup and a compare.
            if state.topics[key] == nil { state.topics[key] = (String(cString: rd_kafka_topic_name(topic)), [:]) }
            state.topics[key]!.highest[message.partition] = max(
                state.topics[key]!.highest[message.partition] ?? -1, message.offset)
        }
    }

    /// One past the highest offset acknowledged on each of `topic`'s first `partitions`
    /// partitions (0 where none was), in partition order; nil when no producer reports here, or
    /// one delivery came without its offset.
    package func ends(of topic: String, partitions: Int) -> [Int64]? {
        state.withLock { state in
            guard state.attached, !state.unknown else { return nil }
            var ends = [Int64](repeating: 0, count: partitions)
            for entry in state.topics.values where entry.name == topic {
                for (partition, highest) in entry.highest where Int(partition) < partitions {
                    ends[Int(partition)] = max(ends[Int(partition)], highest + 1)
                }
            }
            return ends
        }
    }
}
