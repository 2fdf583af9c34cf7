import ArgumentParser
import ArtpipeSupport
import Foundation
import IndexWorker
import ThumbWorker

/// `artpipe prune`: removes thumbnail files that no work in the index uses any more.
struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove thumbnails (and their manifests) that index.json no longer references. Dry run by default.",
        discussion: """
            Deleted works and replaced images leave thumbnails behind: the index stops referencing them, nothing
            removes them. Without --execute this lists what would go. A prune while the workers run takes nothing
            a live work can point to: files of works waiting for thumbnails stay, and so do files a thumb worker
            wrote or reused after index.json was written or less than --keep-recent before; a file reused while
            the prune runs is put back.
            """)

    @Option(help: "The output directory the thumb and index workers share.")
    var out: String

    @Flag(help: "Remove the files instead of listing them.")
    var execute = false

    @Option(
        help: """
            Keep files written or reused this long before index.json was written (30s, 10m, 2h, 1d): \
            longer than a page can take from the thumb worker into a published index.
            """)
    var keepRecent: String = "1d"

    func run() throws {
        guard !out.hasPrefix("s3://") else {
            throw ConfigurationError(
                "--out \(out): prune works on a directory only; pruning a bucket is not supported yet, and nothing was removed"
            )
        }
        let output = URL(fileURLWithPath: out, isDirectory: true)
        let indexURL = output.appendingPathComponent(IndexLayout.manifestPath)
        guard
            let written = (try? FileManager.default.attributesOfItem(atPath: indexURL.path))?[.modificationDate]
                as? Date
        else {
            throw ConfigurationError("--out: cannot read \(indexURL.path)")
        }
        let index: ArtistIndex
        do {
            index = try PublishedIndex.read(from: output).index
        } catch let error as PublishedIndex.ReadError {
            throw ConfigurationError("--out: \(error.description)")
        }
        guard let keepRecent = Duration(text: keepRecent) else {
            throw ConfigurationError("--keep-recent: '\(self.keepRecent)' is not a duration (write 30s, 10m, 2h or 1d)")
        }
        let works = index.artists.flatMap(\.works)
        let plan = try ThumbnailPrunePlan(
            output: output, referencedPaths: works.flatMap(\.thumbnails.values),
            unsettledObjectNumbers: works.filter { ["pending", "failed"].contains($0.thumbnailStatus) }.map(
                \.objectNumber),
            cutoff: written.addingTimeInterval(-keepRecent.seconds))
        guard execute else {
            for candidate in plan.candidates { print("would remove " + candidate.path) }
            print(
                "\(plan.candidates.count) unreferenced files, \(plan.bytes) bytes; run again with --execute to remove them"
            )
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
}
