import ArtpipeSupport
import KafkaClient

/// Builds the dead-letter record of a message: its key, value and headers as they were, plus
/// headers saying why and where it came from.
package enum DeadLetter {
    package static let errorHeader = "artpipe-error"
    package static let sourceTopicHeader = "artpipe-source-topic"
    package static let sourcePartitionHeader = "artpipe-source-partition"
    package static let sourceOffsetHeader = "artpipe-source-offset"
    package static let workerHeader = "artpipe-worker"
    /// Set when the dead letter was too large to produce: the original value's size; the value is left out.
    package static let valueCutHeader = "artpipe-value-cut"
    /// Set when even the dead letter without its value was too large: how many of the
    /// original headers were left out (the key too, when it is over 1 KiB).
    package static let headersCutHeader = "artpipe-headers-cut"
    /// Set on the dead letter of one record of a page (its page went on): the record's id at the source.
    package static let recordIdHeader = "artpipe-record-id"
    /// Longer reasons are cut, so one bad body cannot make a huge record.
    package static let maxReasonLength = 1_000

    package static func record(
        for message: KafkaConsumerMessage, reason: String, worker: String, topic: String = ArtpipeTopic.deadLetters
    ) -> KafkaProducerRecord {
        let shortReason = shortened(reason)
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

    /// The dead letter of one record its source could not read, while the rest of its page
    /// went on: keyed by the page's id, the record's bytes as the source sent them (empty when
    /// it kept none), the record's id and the reason in headers, and where the page's request was.
    package static func record(
        ofRecord record: UnreadableRecord, page message: KafkaConsumerMessage, worker: String,
        topic: String = ArtpipeTopic.deadLetters
    ) -> KafkaProducerRecord {
        let reason = shortened(record.reason)
        let letter = KafkaProducerRecord(
            topic: topic, key: message.key, value: record.bytes ?? [],
            headers: [
                KafkaHeader(errorHeader, reason),
                KafkaHeader(recordIdHeader, shortened(record.recordId)),
                KafkaHeader(sourceTopicHeader, message.topic),
                KafkaHeader(sourcePartitionHeader, String(message.partition)),
                KafkaHeader(sourceOffsetHeader, String(message.offset)),
                KafkaHeader(workerHeader, worker),
            ])
        // Its page's other records and the pages after it go out in the same produce: a record
        // too large to send must not take them down with it. The record is still at its source.
        return letter.value.count > maxRecordBytes ? withoutValue(letter) : letter
    }

    /// The most bytes of a record's own that its dead letter carries; a larger one's letter
    /// says its size (``valueCutHeader``) instead.
    package static let maxRecordBytes = 256 << 10

    private static func shortened(_ text: String) -> String {
        text.prefix(scalars: maxReasonLength)
    }

    /// The dead letter without the original value, for when it is too large to produce.
    package static func withoutValue(_ record: KafkaProducerRecord) -> KafkaProducerRecord {
        var smaller = record
        smaller.headers.append(KafkaHeader(valueCutHeader, String(record.value.count)))
        smaller.value = []
        return smaller
    }

    /// The dead letter with only what says why and where the original is (artpipe's own
    /// headers, the key unless it is huge), for when even ``withoutValue(_:)`` is too large:
    /// the original stays in its topic at the offset it names.
    package static func bare(_ record: KafkaProducerRecord) -> KafkaProducerRecord {
        let own: Set<String> = [
            errorHeader, sourceTopicHeader, sourcePartitionHeader, sourceOffsetHeader, workerHeader,
        ]
        let kept = record.headers.filter { own.contains($0.name) }
        var bare = withoutValue(record)
        bare.headers =
            kept + [
                KafkaHeader(valueCutHeader, String(record.value.count)),
                KafkaHeader(headersCutHeader, String(record.headers.count - kept.count)),
            ]
        if let key = record.key, key.count > 1_024 { bare.key = nil }
        return bare
    }
}
