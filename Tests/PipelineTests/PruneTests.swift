import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPFetching
import HTTPTestKit
import IndexWorker
import ObjectStorage
import PipelineContract
import SampleImages
import Testing

@testable import ThumbWorker

@Suite("artpipe prune while the workers run", .timeLimit(.minutes(2)))
struct PruneTests {
    @Test("a thumbnail reused after index.json was written stays, whatever its age; an unused one goes")
    func reusedFileStays() async throws {
        let images = try await LoopbackImages.start(
            [
                "/reused.jpg": try SampleImage.noisy(width: 500, height: 400, seed: 21),
                "/orphan.jpg": try SampleImage.noisy(width: 400, height: 500, seed: 22),
            ], sizes: [100], label: "prune")
        defer { Task { await images.stop() } }
        let (handler, server, output) = (images.handler, images.server, images.output)
        func artwork(_ number: String, _ path: String) -> Artwork { images.artwork(number, path) }
        // Both were thumbnailed two days ago, for works the index has since dropped.
        let reused = try await handler.item(for: artwork("SK-A-1", "/reused.jpg"))
        let orphan = try await handler.item(for: artwork("SK-A-2", "/orphan.jpg"))
        let thumbs = output.appendingPathComponent("thumbs")
        var twoDaysAgo = [timespec](repeating: timespec(tv_sec: time(nil) - 2 * 86_400, tv_nsec: 0), count: 2)
        for path in FileManager.default.enumerator(atPath: thumbs.path)?.allObjects as? [String] ?? [] {
            #expect(utimensat(AT_FDCWD, thumbs.appendingPathComponent(path).path, &twoDaysAgo, 0) == 0)
        }
        try FolderOutputStore(directory: output).publishWhole(.build(from: IndexInputs()))

        // A re-harvest brings SK-A-1 back with the same image: its page is thumbnailed (reusing
        // the files) but has not reached the index when the prune runs.
        let downloads = server.requests.count
        #expect(try await handler.item(for: artwork("SK-A-1", "/reused.jpg")) == reused)
        #expect(server.requests.count == downloads)

        let prune = try ChildProcess("artpipe", ["prune", "--out", output.path, "--execute", "--keep-recent", "1h"])
        #expect(try await prune.waitForExit(timeout: .seconds(30)) == 0, "\(prune.stderr)")
        for file in reused.files {
            let kept = FileManager.default.fileExists(atPath: output.appendingPathComponent(file.path).path)
            #expect(kept, "\(file.path)")
        }
        for file in orphan.files {
            #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(file.path).path))
            #expect(prune.stdout.contains("removed \(file.path)\n"), "\(prune.stdout)")
        }
    }

    @Test("bad prune flags: one line, exit 2")
    func badKeepRecent() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("prune-flags"))
        try FolderOutputStore(directory: output).publishWhole(.build(from: IndexInputs()))
        let prune = try ChildProcess("artpipe", ["prune", "--out", output.path, "--keep-recent", "soon"])
        #expect(try await prune.waitForExit(timeout: .seconds(30)) == 2)
        #expect(prune.stderr.contains("--keep-recent: 'soon' is not a duration"), "\(prune.stderr)")
    }
}
