import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract
import SampleCollection
import Testing

@Suite("Gallery escaping")
struct GalleryEscapingTests {
    @Test(
        "quotes and angle brackets are escaped even when a combining mark follows them",
        arguments: ["\"\u{301} onmouseover=\"alert(1)", "'\u{20DD}><script>alert(1)</script>", "<\u{338}img src=x>"])
    func combiningMarks(hostile: String) {
        var html = HTMLText()
        html.text(hostile)
        let escaped = String(decoding: html.bytes, as: UTF8.self)
        for raw: Unicode.Scalar in ["\"", "'", "<", ">"] {
            #expect(!escaped.unicodeScalars.contains(raw), "\(raw) left raw in \(escaped.debugDescription)")
        }
        #expect(
            escaped.unicodeScalars.contains("\u{301}") || escaped.unicodeScalars.contains("\u{20DD}")
                || escaped.unicodeScalars.contains("\u{338}"), "the combining mark is kept")
    }
}
