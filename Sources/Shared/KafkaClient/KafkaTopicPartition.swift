/// A topic and one of its partitions.
package struct KafkaTopicPartition: Hashable, Sendable, CustomStringConvertible {
    package let topic: String
    package let partition: Int32

    package init(topic: String, partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    package var description: String { "\(topic)/\(partition)" }
}
