import Foundation
import HTTPTestKit
import SampleImages
import Testing

@testable import ThumbWorker

@Suite("A prune racing the thumb workers", .timeLimit(.minutes(1)))
struct ThumbnailPrunePlanTests {
    @Test(
        "a file reused, or written anew, between the plan and its removal is put back; an unused one goes"
    )
    func reusedDuringPruneIsKept() async throws {
        let images = try await LoopbackImages.start(
            [
                "/a.jpg": try SampleImage.noisy(width: 300, height: 200, seed: 31),
                "/b.jpg": try SampleImage.noisy(width: 200, height: 300, seed: 32),
                "/c.jpg": try SampleImage.noisy(width: 250, height: 250, seed: 33),
            ], sizes: [100], label: "prune-race")
        defer { Task { await images.stop() } }
        let reused = try await images.handler.item(for: images.artwork("SK-REUSED", "/a.jpg"))
        let rewritten = try await images.handler.item(for: images.artwork("SK-REWRITTEN", "/b.jpg"))
        let unused = try await images.handler.item(for: images.artwork("SK-UNUSED", "/c.jpg"))
        // All three were made long ago, and the index shows none of them.
        let thumbs = images.output.appendingPathComponent("thumbs")
        var old = [timespec](repeating: timespec(tv_sec: time(nil) - 86_400, tv_nsec: 0), count: 2)
        for path in FileManager.default.enumerator(atPath: thumbs.path)?.allObjects as? [String] ?? [] {
            #expect(utimensat(AT_FDCWD, thumbs.appendingPathComponent(path).path, &old, 0) == 0)
        }
        let plan = try ThumbnailPrunePlan(
            output: images.output, referencedPaths: [], unsettledObjectNumbers: [],
            cutoff: Date().addingTimeInterval(-3_600))
        let planned = Set(plan.candidates.map(\.path))
        for item in [reused, rewritten, unused] { #expect(planned.isSuperset(of: item.files.map(\.path))) }

        // After the plan, before the removal: a worker reuses one work's file, and makes
        // another's again (its file deleted meanwhile, by anyone).
        #expect(try await images.handler.item(for: images.artwork("SK-REUSED", "/a.jpg")) == reused)
        let rewrittenFile = images.output.appendingPathComponent(try #require(rewritten.files.first).path)
        try FileManager.default.removeItem(at: rewrittenFile)
        #expect(try await images.handler.item(for: images.artwork("SK-REWRITTEN", "/b.jpg")).status == .ok)

        var removed: [String] = []
        for candidate in plan.candidates where try plan.remove(candidate, from: images.output) {
            removed.append(candidate.path)
        }
        let exists = { (path: String) in
            FileManager.default.fileExists(atPath: images.output.appendingPathComponent(path).path)
        }
        for file in reused.files + rewritten.files { #expect(exists(file.path), "\(file.path) was taken") }
        for file in unused.files {
            #expect(!exists(file.path))
            #expect(removed.contains(file.path))
        }
        let leftovers = (try FileManager.default.subpathsOfDirectory(atPath: thumbs.path)).filter {
            let name = $0.split(separator: "/").last ?? ""
            return name.hasPrefix(".") && name.hasSuffix(".tmp")
        }
        #expect(leftovers.isEmpty, "nothing set aside is left behind: \(leftovers)")
    }
}
