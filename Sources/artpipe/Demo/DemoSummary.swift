import ArtpipeSupport
import Foundation
import IndexWorker

/// The demo's closing report.
struct DemoSummary {
    let manifest: IndexManifest
    /// Every work, for the failure reasons.
    let index: ArtistIndex
    let elapsed: Duration
    let cpu: [(name: String, seconds: Double)]
    /// Peak resident memory per process, in bytes.
    var memory: [(name: String, bytes: Int)] = []
    /// Images the thumb workers decoded and their bytes, from their last metrics lines.
    var decoded: (images: Int64, bytes: Int64)?
    let output: URL
    /// The front page: a file's path, or its address in the bucket.
    let gallery: String

    var text: String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let progress = manifest.progress(crawlId: DemoRun.crawlId)
        let thumbnails = index.totals.thumbnails
        var lines = [
            "artpipe demo: complete in \(String(format: "%.1f", seconds)) s",
            "  pages       \(progress.pagesIndexed) indexed, \(progress.pagesFailed) failed",
            "  works       \(index.totals.works) by \(index.totals.artists) artists",
            "  thumbnails  \(thumbnails["ok", default: 0]) ok, \(thumbnails["noImage", default: 0]) without image, "
                + "\(thumbnails["failed", default: 0]) failed",
        ]
        for failure in index.thumbnailFailures {
            lines.append("              \(failure.count) × \(failure.reason)")
        }
        for crawl in index.crawls {
            for page in crawl.failedPages { lines.append("  failed page \(page.page): \(page.reason)") }
        }
        lines.append(
            "  speed       \(String(format: "%.1f", Double(index.totals.works) / max(seconds, 0.001))) works/s "
                + "(from the crawl to the last thumbnail indexed)")
        let pipeline = cpu.filter { $0.name != "sample-server" }
        let total = pipeline.map(\.seconds).reduce(0, +)
        let thumbs = pipeline.filter { $0.name.hasPrefix("thumb-worker") }.map(\.seconds).reduce(0, +)
        if total > 0 {
            let parts = cpu.map { "\($0.name) \(String(format: "%.1f", $0.seconds)) s" }.joined(separator: ", ")
            lines.append("  cpu         \(parts)")
            lines.append(
                "              thumb-worker: \(String(format: "%.0f", 100 * thumbs / total))% of the pipeline's "
                    + "\(String(format: "%.1f", total)) CPU seconds (the sample server, standing in for the museum, not counted)"
            )
            if let decoded, thumbs > 0 {
                let mebibytes = Double(decoded.bytes) / 1_048_576
                lines.append(
                    "              thumb-worker: \(decoded.images) images, \(String(format: "%.0f", mebibytes)) MiB decoded: "
                        + "\(String(format: "%.1f", Double(decoded.images) / thumbs)) images/s and "
                        + "\(String(format: "%.1f", mebibytes / thumbs)) MiB/s per CPU second")
            }
        }
        if !memory.isEmpty {
            let parts = memory.map { "\($0.name) \($0.bytes >> 20) MiB" }.joined(separator: ", ")
            lines.append("  peak RSS    \(parts)")
        }
        lines.append("  gallery     \(gallery)")
        lines.append("  logs        \(output.appendingPathComponent("logs").path)/")
        return lines.joined(separator: "\n")
    }
}
