import ArtpipeRuntime
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@Suite("Dead letters the index reads")
struct FailedRequestTests {
    static func deadLetter(page: String) -> KafkaConsumerMessage {
        let json =
            "{\"v\":1,\"pageId\":\"x:y:1\",\"crawlId\":\"c\",\"source\":\"rijksmuseum\",\"query\":{},"
            + "\"page\":\(page),\"pageSize\":100}"
        return KafkaConsumerMessage(
            topic: ArtpipeTopic.deadLetters, partition: 0, offset: 0, key: Array("x:y:1".utf8), value: Array(json.utf8),
            headers: [
                KafkaHeader(MessageCodec.schemaHeader, "page-request/1"),
                KafkaHeader(DeadLetter.sourceTopicHeader, ArtpipeTopic.pageRequests),
                KafkaHeader(DeadLetter.errorHeader, "HTTP 500"),
            ])
    }

    @Test("a dead-lettered request with a huge page number is skipped, never a gap list that long")
    func hugePage() throws {
        guard case .other = try IndexInput(Self.deadLetter(page: "9223372036854775807")) else {
            Issue.record("a page number out of range became a failed page")
            return
        }
        guard case .failedRequest(let request, let reason) = try IndexInput(Self.deadLetter(page: "4")) else {
            Issue.record("a valid dead-lettered request was not read")
            return
        }
        #expect(request.page == 4 && reason == "HTTP 500")
    }
}
