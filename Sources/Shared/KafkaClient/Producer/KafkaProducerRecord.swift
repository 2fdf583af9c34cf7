/// A record to produce.
public struct KafkaProducerRecord: Sendable {
    public var topic: String
    /// The partition, or nil to let the key choose it.
    public var partition: Int32?
    public var key: [UInt8]?
    public var value: [UInt8]
    public var headers: [KafkaHeader]

    public init(topic: String, partition: Int32? = nil, key: [UInt8]?, value: [UInt8], headers: [KafkaHeader] = []) {
        self.topic = topic
        self.partition = partition
        self.key = key
        self.value = value
        self.headers = headers
    }

    public init(topic: String, partition: Int32? = nil, key: String, value: [UInt8], headers: [KafkaHeader] = []) {
        self.init(topic: topic, partition: partition, key: Array(key.utf8), value: value, headers: headers)
    }
}
