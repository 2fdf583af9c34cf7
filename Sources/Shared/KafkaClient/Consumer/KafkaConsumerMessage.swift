/// A record read from a Kafka partition.
public struct KafkaConsumerMessage: Sendable {
    public let topic: String
    public let partition: Int32
    public let offset: Int64
    public let key: [UInt8]?
    public let value: [UInt8]
    public let headers: [KafkaHeader]
    /// Milliseconds since the epoch, when the broker provided a timestamp.
    public let timestampMilliseconds: Int64?

    public init(
        topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8],
        headers: [KafkaHeader] = [], timestampMilliseconds: Int64? = nil
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.headers = headers
        self.timestampMilliseconds = timestampMilliseconds
    }

    /// The key as UTF-8 text.
    public var keyString: String? { key.flatMap { String(validating: $0, as: UTF8.self) } }
}
