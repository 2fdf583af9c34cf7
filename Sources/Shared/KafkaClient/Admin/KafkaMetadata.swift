/// Topics and partition counts as the cluster reports them.
public struct KafkaMetadata: Sendable {
    public let brokerCount: Int
    public let partitionsByTopic: [String: Int]
}
