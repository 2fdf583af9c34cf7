import ArgumentParser
import ArtpipeSupport
import Foundation
import IndexWorker
import Logging
import NIOPosix
import ObjectStorage
import ThumbWorker

/// `artpipe prune`: removes thumbnail files that no work in the index uses any more.
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove thumbnails (and their manifests) that index.json no longer references. Dry run by default.",
        discussion: """
            Deleted works and replaced images leave thumbnails behind: the index stops referencing them, nothing
            removes them. Without --execute this lists what would go. A prune while the workers run takes nothing
            a live work can point to: files of works waiting for thumbnails stay, and so do files a thumb worker
            wrote or reused after index.json was written or less than --keep-recent before; a file reused while
            the prune runs is put back (a folder) or kept (a bucket, where thumb workers hold back pages while a
            prune deletes: see docs/object-storage.md).
            """)

    @OptionGroup var output: OutputOptions

    @Flag(help: "Remove the files instead of listing them.")
    var execute = false

    @Option(
        help: """
            Keep files written or reused this long before index.json was written (30s, 10m, 2h, 1d): \
            longer than a page can take from the thumb worker into a published index, and in a bucket longer \
            than the thumb workers' --touch-after too.
            """)
    var keepRecent: String = "1d"

    @Option(help: "In a bucket: the thumb workers' --touch-after (30s, 10m, 2h, 1d); --keep-recent must be longer.")
    var touchAfter: String = "1h"

    func run() async throws {
        guard let keepRecent = Duration(text: keepRecent) else {
            throw ConfigurationError("--keep-recent: '\(self.keepRecent)' is not a duration (write 30s, 10m, 2h or 1d)")
        }
        if let folder = try output.location().folder {
            // Reads and renames block: a thread of their own, not Swift's pool.
            try await NIOThreadPool.withPool(threads: 1) { pool in
                try await pool.runIfActive { try prune(folder: folder, keepRecent: keepRecent) }
            }
            return
        }
        guard let touchAfter = Duration(text: touchAfter) else {
            throw ConfigurationError("--touch-after: '\(self.touchAfter)' is not a duration (write 30s, 10m, 2h or 1d)")
        }
        if let problem = BucketPrunePlan.keepRecentProblem(keepRecent: keepRecent, touchAfter: touchAfter) {
            throw ConfigurationError(problem)
        }
        let store = try await output.open(logger: Logger(label: "artpipe.prune"))
        guard let bucket = store as? BucketOutputStore else { return }
        // The store's calls block: they run on a thread of their own, not on Swift's pool.
        try await NIOThreadPool.withPool(threads: 1) { pool in
            try await pool.runIfActive { try prune(bucket: bucket, keepRecent: keepRecent) }
        }
    }

    /// What the published index says stays, read as one publish left it.
    private func liveWorks(in output: any OutputStore) throws -> IndexReferences {
        do {
            return try IndexReferences.read(from: output)
        } catch let error as PublishedIndex.ReadError {
            throw ConfigurationError("--out: \(error.description)")
        }
    }

    private func prune(bucket: BucketOutputStore, keepRecent: Duration) throws {
        let indexAddress = bucket.address(of: IndexLayout.manifestPath)
        guard let written = try bucket.lastModified(of: IndexLayout.manifestPath) ?? nil else {
            throw ConfigurationError("--out: \(indexAddress) is not there: nothing says which thumbnails are in use")
        }
        let live = try liveWorks(in: bucket)
        let plan = try BucketPrunePlan(
            store: bucket, referencedPaths: live.thumbnailPaths, unsettledObjectNumbers: live.unsettledObjectNumbers,
            cutoff: written.addingTimeInterval(-keepRecent.seconds))
        guard execute else {
            printDryRun(plan.candidates.map(\.path), bytes: plan.bytes, noun: "objects")
            return
        }
        let outcome = try plan.execute(in: bucket) { print($0) }
        for candidate in outcome.removed { print("removed " + candidate.path) }
        for candidate in outcome.kept { print("kept " + candidate.path + " (used while pruning)") }
        print(
            "\(outcome.removed.count) unreferenced objects, \(outcome.removed.map(\.bytes).saturatingSum()) bytes removed"
        )
    }

    private func prune(folder output: URL, keepRecent: Duration) throws {
        let indexURL = output.appendingPathComponent(IndexLayout.manifestPath)
        guard
            let written = (try? FileManager.default.attributesOfItem(atPath: indexURL.path))?[.modificationDate]
                as? Date
        else {
            throw ConfigurationError("--out: cannot read \(indexURL.path)")
        }
        let live = try liveWorks(in: FolderOutputStore(directory: output))
        let plan = try ThumbnailPrunePlan(
            output: output, referencedPaths: live.thumbnailPaths, unsettledObjectNumbers: live.unsettledObjectNumbers,
            cutoff: written.addingTimeInterval(-keepRecent.seconds))
        guard execute else {
            printDryRun(plan.candidates.map(\.path), bytes: plan.bytes, noun: "files")
            return
        }
        var removed = 0
        var bytes = 0
        for candidate in plan.candidates {
            if try plan.remove(candidate, from: output) {
                print("removed " + candidate.path)
                removed += 1
                bytes += candidate.bytes
            } else {
                print("kept " + candidate.path + " (used while pruning)")
            }
        }
        print("\(removed) unreferenced files, \(bytes) bytes removed")
    }

    private func printDryRun(_ paths: [String], bytes: Int, noun: String) {
        for path in paths { print("would remove " + path) }
        print("\(paths.count) unreferenced \(noun), \(bytes) bytes; run again with --execute to remove them")
    }
}
