/// A topic and one of its partitions.
public struct KafkaTopicPartition: Hashable, Sendable, CustomStringConvertible {
    public let topic: String
    public let partition: Int32

    public init(topic: String, partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    public var description: String { "\(topic)/\(partition)" }
}
