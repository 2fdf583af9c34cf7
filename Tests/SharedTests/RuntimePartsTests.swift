import Foundation
import Logging
import Testing

@testable import Shared

@Suite("Runtime parts")
struct RuntimePartsTests {
    @Test("latency percentiles are within the histogram's 6% resolution")
    func histogramPercentiles() {
        var histogram = LatencyHistogram()
        for millisecond in 1...1_000 { histogram.record(nanoseconds: Int64(millisecond) * 1_000_000) }
        for (quantile, expected) in [(0.5, 500.0), (0.95, 950.0), (0.99, 990.0)] {
            let value = Double(histogram.percentile(quantile)!) / 1_000_000
            #expect(abs(value - expected) / expected < 0.07, "p\(Int(quantile * 100)) = \(value) ms")
        }
        #expect(LatencyHistogram().percentile(0.5) == nil)
    }

    @Test("retry delays grow exponentially with jitter and stay under the cap")
    func retryDelays() {
        let policy = RetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(100), maxDelay: .seconds(1))
        for attempt in 1...10 {
            let ceiling = min(1.0, 0.1 * pow(2, Double(attempt - 1)))
            for _ in 0..<50 {
                let delay = policy.delay(afterAttempt: attempt).seconds
                #expect(delay >= 0 && delay <= ceiling + 1e-9)
            }
        }
        #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
    }

    @Test("JSON log lines escape text and keep numbers as numbers")
    func jsonLogLine() throws {
        var pipe: [Int32] = [0, 0]
        #expect(Foundation.pipe(&pipe) == 0)
        var logger = Logger(label: "test.json") {
            JSONLogHandler(label: $0, output: LineOutput(fileDescriptor: pipe[1]))
        }
        logger[metadataKey: "kafka.topic"] = "pages"
        logger.info(
            "quote \" backslash \\ newline \n tab \t bell \u{7} Roëttiers",
            metadata: ["count": .stringConvertible(42), "ratio": .stringConvertible(0.5), "nested": ["a": "b"]])
        close(pipe[1])
        let data = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true).readDataToEndOfFile()
        #expect(data.last == UInt8(ascii: "\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["msg"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{7} Roëttiers")
        #expect(object["count"] as? Int == 42)
        #expect(object["ratio"] as? Double == 0.5)
        #expect((object["nested"] as? [String: String])?["a"] == "b")
        #expect(object["kafka.topic"] as? String == "pages")
        #expect(object["level"] as? String == "info")
    }

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

    @Test("consumer lag is read from librdkafka's statistics, skipping unknown values")
    func lagFromStatistics() throws {
        let json = """
            {"topics": {"artpipe.pages": {"partitions": {
              "0": {"consumer_lag": 5}, "1": {"consumer_lag": -1}, "2": {"consumer_lag": 7}, "-1": {"consumer_lag": 9}}}}}
            """
        let lag = try #require(KafkaConsumerLag(statisticsJSON: json))
        #expect(lag.total == 12)
        #expect(lag.partitions.count == 2)
    }
}
