import ArtpipeSupport
import Foundation
import IndexWorker
import NIOPosix
import ObjectStorage
import UnixSignals

/// The demo's processes and its progress display.
final class DemoRun {
    static let crawlId = "demo"

    /// Logs and the demo's own files; the published files too unless they go to a bucket.
    let output: URL
    /// Where the index is published.
    let published: any OutputStore
    let expectedPages: Int
    let interactive: Bool
    /// Each role's process, by name.
    private(set) var processes: [(name: String, child: ChildProcess)] = []
    private var crawlStarted = ContinuousClock.now

    init(output: URL, published: any OutputStore, expectedPages: Int, interactive: Bool) {
        self.output = output
        self.published = published
        self.expectedPages = expectedPages
        self.interactive = interactive
    }

    /// A file of the demo's own, under DIR/.demo.
    func file(_ name: String) -> String {
        output.appendingPathComponent(".demo").appendingPathComponent(name).path
    }

    var logDirectory: URL { output.appendingPathComponent("logs") }

    /// Time since the crawl was published.
    var elapsed: Duration { ContinuousClock.now - crawlStarted }

    func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Starts one role as a process of this same executable, its output appended to logs/<name>.log.
    @discardableResult
    func launch(_ name: String, _ arguments: [String], keep: Bool = true) throws -> ChildProcess {
        let process = try ChildProcess(
            executableURL: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), arguments: arguments,
            outputURL: logDirectory.appendingPathComponent("\(name).log"))
        if keep { processes.append((name, process)) }
        return process
    }

    /// Starts a process that reports readiness by writing `readyFile`; returns that file's text.
    func start(_ name: String, _ arguments: [String], readyFile: String) async throws -> String {
        let process = try launch(name, arguments)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: file(readyFile), encoding: .utf8), !text.isEmpty {
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            try checkAlive(name, process)
            try await Task.sleep(for: .milliseconds(50))
        }
        throw DemoFailure(description: "\(name) did not start within 30 s; see \(process.outputURL.path)")
    }

    /// Runs `artpipe crawl` to its end.
    func crawl(_ arguments: [String]) async throws {
        crawlStarted = .now
        let crawl = try launch("crawl", arguments, keep: false)
        while crawl.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        guard crawl.exitStatus == 0 else {
            throw DemoFailure(description: "the crawl failed (exit \(crawl.exitStatus)): \(crawl.outputTail(lines: 2))")
        }
        say(crawl.outputTail(lines: 1))
    }

    /// Polls index.json until the crawl is complete, showing progress; returns the whole index.
    func waitForCompletion(timeout: Duration, stopSignal: () -> UnixSignal?) async throws -> (
        manifest: IndexManifest, index: ArtistIndex
    ) {
        let deadline = ContinuousClock.now + timeout
        var lastReport = ContinuousClock.now - .seconds(60)
        while true {
            if let signal = stopSignal() {
                throw DemoFailure(description: "stopped by signal \(signal) before the index was complete")
            }
            for (name, process) in processes { try checkAlive(name, process) }
            // The store's reads block: off the cooperative pool.
            let published = self.published
            let progress =
                (try? await NIOThreadPool.singleton.runIfActive { try PublishedIndex.manifest(in: published) })?
                .progress(crawlId: Self.crawlId)
            if let progress, progress.isComplete(expectedPages: expectedPages) {
                if interactive { FileHandle.standardOutput.write(Data((progressLine(progress) + "\n").utf8)) }
                // Published before the manifest that says complete, and the same in every later build.
                return try await NIOThreadPool.singleton.runIfActive { try PublishedIndex.read(from: published) }
            }
            let now = ContinuousClock.now
            if now >= deadline {
                throw DemoFailure(
                    description:
                        "the index was not complete after \(timeout) (\(progress.map(progressLine) ?? "no index yet"))")
            }
            if interactive || now - lastReport >= .seconds(5) {
                let line = progress.map(progressLine) ?? "waiting for the first index.json"
                FileHandle.standardOutput.write(Data((interactive ? "\r\u{1B}[K" + line : line + "\n").utf8))
                lastReport = now
            }
            try await Task.sleep(for: .milliseconds(interactive ? 250 : 500))
        }
    }

    private func progressLine(_ progress: IndexManifest.Progress) -> String {
        let done = progress.pagesIndexed + progress.pagesFailed
        let share = min(Double(done) / Double(max(expectedPages, 1)), 1)
        let seconds = elapsed.seconds
        let rate = seconds > 0 ? Double(progress.works) / seconds : 0
        let text =
            "pages \(done)/\(expectedPages) (\(progress.pagesFailed) failed), works \(progress.works), "
            + "thumbnails pending \(progress.pendingThumbnails), \(String(format: "%.1f", rate)) works/s"
        guard interactive else { return "progress: " + text }
        let width = 24
        let filled = Int(share * Double(width))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + text
    }

    private func checkAlive(_ name: String, _ process: ChildProcess) throws {
        guard process.isRunning else {
            throw DemoFailure(
                description:
                    "\(name) exited with status \(process.exitStatus); see \(process.outputURL.path): "
                    + process.outputTail(lines: 3))
        }
    }

    /// Peak resident memory per process, in bytes, while they still run.
    func peakResidentBytes() -> [(name: String, bytes: Int)] {
        processes.compactMap { name, process in process.peakResidentBytes.map { (name, $0) } }
    }

    /// CPU seconds per process, while they still run.
    /// The sum of `counters` over the last `metrics` line of each log whose name starts with
    /// `prefix` (a worker logs one at shutdown); nil when no log has one.
    func loggedCounters(_ counters: [String], prefix: String) -> [Int64]? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: logDirectory.path)) ?? []
        var totals: [Int64]?
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".log") {
            guard let text = try? String(contentsOf: logDirectory.appendingPathComponent(name), encoding: .utf8),
                let line = text.split(separator: "\n").last(where: { $0.contains("\"msg\":\"metrics\"") }),
                let fields = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else { continue }
            let values = counters.map { (fields[$0] as? NSNumber)?.int64Value ?? 0 }
            totals = zip(totals ?? Array(repeating: 0, count: counters.count), values).map(+)
        }
        return totals
    }

    func cpuSeconds() -> [(name: String, seconds: Double)] {
        processes.compactMap { name, process in process.cpuSeconds.map { (name, $0) } }
    }

    /// Workers first (they finish in-flight work and commit), then the sample server and the broker.
    func stopGracefully() async {
        let workers = processes.filter { $0.name.contains("worker") }.map(\.child)
        let others = processes.filter { !$0.name.contains("worker") }.map(\.child)
        for group in [workers, others] {
            for process in group { process.signal(SIGTERM) }
            let deadline = ContinuousClock.now + .seconds(40)
            while group.contains(where: \.isRunning), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(50))
            }
            for process in group where process.isRunning { process.signal(SIGKILL) }
        }
    }

    /// Last resort on the way out: nothing outlives the demo.
    func stopAll() {
        for (_, process) in processes { process.signal(SIGKILL) }
    }
}
