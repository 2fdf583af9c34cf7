import Crypto
import KafkaClient
import PipelineContract
import Testing

@Suite("Page ids and the pipeline's names")
struct PageIDTests {
    @Test("SHA-256 digests are lower-case hex (FIPS 180-4 test vectors)")
    func digestVectors() {
        #expect(
            SHA256.hexDigest(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hexDigest(of: [UInt8]())
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000)).hasPrefix("41edece42d63e8d9"))
    }

    @Test("a query's page ids do not depend on parameter order, and stay what they were")
    func stablePageIDs() {
        let id = PageID.make(source: "rijksmuseum", query: ["s": "artist", "q": "x"], page: 3)
        #expect(id == PageID.make(source: "rijksmuseum", query: ["q": "x", "s": "artist"], page: 3))
        // SHA-256 of "q=x&s=artist", first 16 hex digits: ids published before keep matching.
        #expect(id == "rijksmuseum:91cfa3cee44cc55c:3")
        #expect(id != PageID.make(source: "rijksmuseum", query: ["q": "x"], page: 3))
    }

    @Test("every stage's group and topics come from one place")
    func stages() {
        #expect(PipelineStage.groupIDs == ["artpipe-fetch", "artpipe-thumb", "artpipe-index"])
        #expect(PipelineStage(groupID: "artpipe-thumb") == .thumb)
        #expect(PipelineStage(groupID: "someone-else") == nil)
        #expect(PipelineStage.index.inputTopics.contains(ArtpipeTopic.deadLetters))
        #expect(PipelineStage.fetch.workerName == "fetch")
    }

    @Test(
        "topics create asks for compaction where the latest message per key is the state: pages, thumbnails, harvests, the index's own"
    )
    func compactedTopics() {
        let compacted = Set(ArtpipeTopic.all.filter { ArtpipeTopic.settings[$0]?["cleanup.policy"] == "compact" })
        #expect(
            compacted == Set([ArtpipeTopic.pages, ArtpipeTopic.thumbnails, ArtpipeTopic.harvests] + ArtpipeTopic.index))
        #expect(!compacted.contains(ArtpipeTopic.deadLetters), "dead letters hold no state: the broker's retention")
    }
}

@Suite("Numbers from messages are range-checked")
struct MessageRangeTests {
    static func message(_ json: String, schema: String) -> KafkaConsumerMessage {
        KafkaConsumerMessage(
            topic: ArtpipeTopic.pageRequests, partition: 0, offset: 0, key: nil, value: Array(json.utf8),
            headers: [KafkaHeader(MessageCodec.schemaHeader, schema)])
    }

    @Test(
        "a page request with a page or page size out of range is poison, not a crash",
        arguments: [
            "\"page\":9223372036854775807,\"pageSize\":100", "\"page\":0,\"pageSize\":100",
            "\"page\":-5,\"pageSize\":100", "\"page\":3,\"pageSize\":0", "\"page\":3,\"pageSize\":4611686018427387904",
        ])
    func pageRequests(numbers: String) {
        let json = "{\"v\":1,\"pageId\":\"x:y:1\",\"crawlId\":\"c\",\"source\":\"rijksmuseum\",\"query\":{},\(numbers)}"
        #expect(throws: MessageDecodingError.self) {
            try MessageCodec.decode(PageRequest.self, from: Self.message(json, schema: "page-request/1"))
        }
    }

    @Test("a page with a page number out of range is poison")
    func pages() {
        let json =
            "{\"v\":1,\"pageId\":\"x:y:1\",\"crawlId\":\"c\",\"source\":\"s\",\"query\":{},\"page\":100001,\"total\":1,\"artworks\":[]}"
        #expect(throws: MessageDecodingError.self) {
            try MessageCodec.decode(Page.self, from: Self.message(json, schema: "page/1"))
        }
        let valid = json.replacingOccurrences(of: "100001", with: "7")
        #expect(throws: Never.self) { try MessageCodec.decode(Page.self, from: Self.message(valid, schema: "page/1")) }
    }
}
