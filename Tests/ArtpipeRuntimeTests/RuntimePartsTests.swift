import Foundation
import Logging
import Testing

@testable import ArtpipeRuntime

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
}
