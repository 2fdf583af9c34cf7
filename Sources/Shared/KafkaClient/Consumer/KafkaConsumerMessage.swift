/// A record read from a Kafka partition.
package struct KafkaConsumerMessage: Sendable {
    package let topic: String
    package let partition: Int32
    package let offset: Int64
    package let key: [UInt8]?
    package let value: [UInt8]
    package let headers: [KafkaHeader]
    /// Milliseconds since the epoch, when the broker provided a timestamp.
    package let timestampMilliseconds: Int64?
    /// No value at all (null, not empty): a tombstone on a compacted topic.
    package let isTombstone: Bool

    package init(
        topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8],
        headers: [KafkaHeader] = [], timestampMilliseconds: Int64? = nil, isTombstone: Bool = false
    ) {
        self.isTombstone = isTombstone
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.headers = headers
        self.timestampMilliseconds = timestampMilliseconds
    }

    /// The key as UTF-8 text.
    package var keyString: String? { key.flatMap { String(validating: $0, as: UTF8.self) } }
}
