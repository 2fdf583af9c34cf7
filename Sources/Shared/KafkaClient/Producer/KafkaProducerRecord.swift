/// A record to produce.
package struct KafkaProducerRecord: Sendable {
    package var topic: String
    /// The partition, or nil to let the key choose it.
    package var partition: Int32?
    package var key: [UInt8]?
    package var value: [UInt8]
    package var headers: [KafkaHeader]
    /// Produced with no value at all (null), which compaction reads as "this key is gone".
    package var isTombstone = false

    package init(topic: String, partition: Int32? = nil, key: [UInt8]?, value: [UInt8], headers: [KafkaHeader] = []) {
        self.topic = topic
        self.partition = partition
        self.key = key
        self.value = value
        self.headers = headers
    }

    package init(topic: String, partition: Int32? = nil, key: String, value: [UInt8], headers: [KafkaHeader] = []) {
        self.init(topic: topic, partition: partition, key: Array(key.utf8), value: value, headers: headers)
    }

    /// The key's tombstone on a compacted topic.
    package static func tombstone(topic: String, partition: Int32? = nil, key: String) -> KafkaProducerRecord {
        var record = KafkaProducerRecord(topic: topic, partition: partition, key: key, value: [])
        record.isTombstone = true
        return record
    }
}
