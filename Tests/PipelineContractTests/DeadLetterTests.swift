import KafkaClient
import PipelineContract
import Testing

@Suite("Dead letters")
struct DeadLetterTests {
    @Test("dead letters keep the original bytes and headers and cut long reasons")
    func deadLetterRecord() {
        let message = KafkaConsumerMessage(
            topic: "artpipe.pages", partition: 3, offset: 42, key: Array("page-1".utf8), value: [0, 255, 1],
            headers: [KafkaHeader("content-type", "application/json")])
        let record = DeadLetter.record(for: message, reason: String(repeating: "x", count: 5_000), worker: "thumb")
        #expect(record.topic == ArtpipeTopic.deadLetters)
        #expect(record.key == Array("page-1".utf8))
        #expect(record.value == [0, 255, 1])
        #expect(record.headers.value(of: "content-type") == "application/json")
        #expect(record.headers.value(of: DeadLetter.sourcePartitionHeader) == "3")
        #expect(record.headers.value(of: DeadLetter.sourceOffsetHeader) == "42")
        #expect((record.headers.value(of: DeadLetter.errorHeader)?.count ?? 0) <= DeadLetter.maxReasonLength + 1)
    }
}
