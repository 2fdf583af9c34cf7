import KafkaClient

/// Builds the dead-letter record of a message: its key, value and headers as they were, plus
/// headers saying why and where it came from.
public enum DeadLetter {
    public static let errorHeader = "artpipe-error"
    public static let sourceTopicHeader = "artpipe-source-topic"
    public static let sourcePartitionHeader = "artpipe-source-partition"
    public static let sourceOffsetHeader = "artpipe-source-offset"
    public static let workerHeader = "artpipe-worker"
    /// Set when the dead letter was too large to produce: the original value's size; the value is left out.
    public static let valueCutHeader = "artpipe-value-cut"
    /// Longer reasons are cut, so one bad body cannot make a huge record.
    public static let maxReasonLength = 1_000

    public static func record(
        for message: KafkaConsumerMessage, reason: String, worker: String, topic: String = ArtpipeTopic.deadLetters
    ) -> KafkaProducerRecord {
        let shortReason = reason.count > maxReasonLength ? String(reason.prefix(maxReasonLength)) + "…" : reason
        let headers =
            message.headers + [
                KafkaHeader(errorHeader, shortReason),
                KafkaHeader(sourceTopicHeader, message.topic),
                KafkaHeader(sourcePartitionHeader, String(message.partition)),
                KafkaHeader(sourceOffsetHeader, String(message.offset)),
                KafkaHeader(workerHeader, worker),
            ]
        return KafkaProducerRecord(topic: topic, key: message.key, value: message.value, headers: headers)
    }
}
