import KafkaClient

/// The changelog of a handler's own state (Kafka Streams' term), and its place among the
/// records a message's handling (or a run's) returns: the changelog's records and the others
/// are produced one part after the other, the second once the first is acknowledged, so a crash
/// between them leaves the state a restore finds on a known side of the outputs.
package struct StoreChangelog: Sendable, Equatable {
    package enum Order: Sendable, Equatable {
        /// The outputs first: a restored state is never ahead of them. The input handled again
        /// from that state makes them again; for a state whose outputs follow from it alone.
        case afterOutputs
        /// The changelog first: a restored state may be ahead of the outputs, by changes its
        /// handler can name (and make their outputs again); for outputs that a change's earlier
        /// state decides (a line taken out of the shard it was in).
        case beforeOutputs
    }

    package let topic: String
    package let order: Order

    package init(_ topic: String, order: Order) {
        (self.topic, self.order) = (topic, order)
    }

    /// What of `records` (a changelog's, compacted) needs sending: the last record of each
    /// partition and key, in the order of those last ones; records without a key all kept.
    package static func lastOfEachKey(_ records: [KafkaProducerRecord]) -> [KafkaProducerRecord] {
        struct Place: Hashable {
            var partition: Int32?
            var key: [UInt8]
        }
        var last: [Place: Int] = [:]
        for (index, record) in records.enumerated() {
            if let key = record.key { last[Place(partition: record.partition, key: key)] = index }
        }
        return records.enumerated().filter { index, record in
            record.key.map { last[Place(partition: record.partition, key: $0)] == index } ?? true
        }.map(\.element)
    }
}
