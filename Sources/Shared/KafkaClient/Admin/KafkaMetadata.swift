/// Topics and partition counts as the cluster reports them.
package struct KafkaMetadata: Sendable {
    package let brokerCount: Int
    package let partitionsByTopic: [String: Int]
}
