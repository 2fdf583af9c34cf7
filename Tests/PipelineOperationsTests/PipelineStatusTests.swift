import Foundation
import KafkaClient
import PipelineContract
import PipelineOperations
import Testing

/// What `artpipe status` makes of the messages it reads: each page's stage, failures, retries
/// and dead letters, counted as a user reads them.
@Suite("Pipeline status: pages, failures, retries and dead letters")
struct PipelineStatusTests {
    static let request = PageRequest(
        crawlId: "c1", source: "rijksmuseum-oai", query: ["set": "paintings"], page: 3, pageSize: 100)

    static func message(
        _ topic: String, offset: Int64, key: String?, value: [UInt8] = [], headers: [KafkaHeader] = []
    ) -> KafkaConsumerMessage {
        KafkaConsumerMessage(
            topic: topic, partition: 0, offset: offset, key: key.map { Array($0.utf8) }, value: value, headers: headers)
    }

    static func requestMessage(offset: Int64 = 0) throws -> KafkaConsumerMessage {
        let record = try MessageCodec.record(request, topic: ArtpipeTopic.pageRequests)
        return message(ArtpipeTopic.pageRequests, offset: offset, key: request.pageId, value: record.value)
    }

    /// The dead letter a worker makes of `original`, as read back at `offset` of the dead-letter topic.
    static func read(_ record: KafkaProducerRecord, offset: Int64) -> KafkaConsumerMessage {
        message(
            ArtpipeTopic.deadLetters, offset: offset, key: record.key.flatMap { String(validating: $0, as: UTF8.self) },
            value: record.value, headers: record.headers)
    }

    @Test("a page request dead-lettered twice (sent again after a redelivery) is one failed page and one dead letter")
    func deadLetterRedelivered() throws {
        var status = PipelineStatus()
        let original = try Self.requestMessage(offset: 7)
        status.add(request: original)
        let deadLetter = DeadLetter.record(for: original, reason: "HTTP 404", worker: "fetch-worker")
        status.add(deadLetter: Self.read(deadLetter, offset: 0))
        status.add(deadLetter: Self.read(deadLetter, offset: 1))
        #expect(status.deadLetters == 1)
        #expect(status.deadLetterMessages == 2)
        #expect(status.pages[Self.request.pageId]?.failure?.reason == "HTTP 404")
        let lines = status.text.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasSuffix(
                "0 fetched, 0 thumbnailed, indexed unknown (give --out), 1 failed, 0 waiting for a retry") == true)
        #expect(lines.contains("  failed  \(Self.request.pageId) (page 3) in fetch-worker: HTTP 404"))
        #expect(lines.contains("dead letters: 1 (2 messages, with those sent again after a redelivery)"))
    }

    @Test("two dead letters of different messages count as two, though they say the same")
    func distinctDeadLetters() throws {
        var status = PipelineStatus()
        for offset in [7, 8] as [Int64] {
            let original = try Self.requestMessage(offset: offset)
            status.add(
                deadLetter: Self.read(
                    DeadLetter.record(for: original, reason: "HTTP 404", worker: "fetch-worker"), offset: offset))
        }
        #expect(status.deadLetters == 2)
        #expect(status.text.contains("dead letters: 2\n"))
    }

    @Test("an unreadable record counts once by its page and id, and its page does not fail")
    func unreadableRecord() throws {
        var status = PipelineStatus()
        let page = Self.message(ArtpipeTopic.pageRequests, offset: 7, key: Self.request.pageId)
        let record = UnreadableRecord(recordId: "oai:rijks:42", reason: "no title", bytes: Array("<record/>".utf8))
        let first = DeadLetter.record(ofRecord: record, page: page, worker: "fetch-worker")
        // The page handled again (after a crash, or replayed from another offset): the same record.
        let again = DeadLetter.record(
            ofRecord: record, page: Self.message(ArtpipeTopic.pageRequests, offset: 9, key: Self.request.pageId),
            worker: "fetch-worker")
        let other = DeadLetter.record(
            ofRecord: UnreadableRecord(recordId: "oai:rijks:43", reason: "no title", bytes: nil), page: page,
            worker: "fetch-worker")
        for (offset, deadLetter) in [first, again, other].enumerated() {
            status.add(deadLetter: Self.read(deadLetter, offset: Int64(offset)))
        }
        #expect(status.deadLetters == 2)
        #expect(status.deadRecords == 2)
        #expect(status.pages[Self.request.pageId]?.failure == nil)
        #expect(
            status.text.contains(
                "dead letters: 2 (2 of them single unreadable records; 3 messages, with those sent again after a redelivery)"
            ))
        // Each is named by its record id and page, once.
        #expect(status.deadRecordList.map(\.recordId) == [record.recordId, "oai:rijks:43"])
        #expect(status.text.contains("  unreadable oai:rijks:43 (page \(Self.request.pageId)): no title"))
    }

    @Test("a page waits for its latest retry, and leaves the list once it got further or failed")
    func retries() throws {
        var status = PipelineStatus()
        let original = try Self.requestMessage()
        status.add(request: original)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let first = RetryState.after(nil, failedAt: start, reason: "HTTP 503", due: start.addingTimeInterval(60))
        let second = RetryState.after(
            first, failedAt: start.addingTimeInterval(60), reason: "timed out", due: start.addingTimeInterval(300))
        // Copies read out of order: the one with more attempts wins.
        for (offset, state) in [second, first].enumerated() {
            let record = state.record(for: original, topic: ArtpipeTopic.pageRequests + ".retry-1")
            status.add(
                retry: Self.message(
                    record.topic, offset: Int64(offset), key: Self.request.pageId, value: record.value,
                    headers: record.headers),
                from: .requested)
        }
        #expect(status.pages[Self.request.pageId]?.retry?.attempts == 2)
        #expect(status.text.contains(", 1 waiting for a retry"))
        #expect(status.text.contains("  retry   \(Self.request.pageId) (page 3): attempt 3 at "))
        #expect(status.text.contains(": timed out"))
        // Fetched meanwhile: no longer waiting for its retry.
        status.advance(Self.request.pageId, to: .fetched)
        #expect(status.text.contains(", 0 waiting for a retry"))
        #expect(!status.text.contains("  retry   "))
    }

    @Test("the waiting list names the first 20 pages in crawl and page order and counts the rest")
    func waitingList() throws {
        var status = PipelineStatus()
        for page in (1...25).reversed() {
            let request = PageRequest(crawlId: "c1", source: "itunes", query: ["term": "x"], page: page, pageSize: 10)
            let record = try MessageCodec.record(request, topic: ArtpipeTopic.pageRequests)
            status.add(
                request: Self.message(
                    ArtpipeTopic.pageRequests, offset: Int64(page), key: request.pageId, value: record.value))
        }
        let waiting = status.text.split(separator: "\n").filter { $0.hasPrefix("  waiting ") }
        #expect(waiting.count == 20)
        #expect(waiting.first?.hasSuffix("(page 1): requested") == true)
        #expect(waiting.last?.hasSuffix("(page 20): requested") == true)
        #expect(status.text.contains("  … and 5 more waiting"))
    }

    @Test("each group's lag is its partitions' sum, a partition with nothing committed shown as -")
    func lag() {
        var status = PipelineStatus()
        status.lags = [PipelineStatus.Lag(group: "artpipe-index", topic: "artpipe.pages", partitions: [3, nil, 4])]
        #expect(status.text.hasSuffix("  artpipe-index\tartpipe.pages\t7\t[3 - 4]"))
    }
}
