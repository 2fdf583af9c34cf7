import ArgumentParser
import ArtpipeSupport
import Foundation
import IndexWorker

/// `artpipe prune`: removes thumbnail files that no work in the index uses any more.
struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove thumbnails (and their manifests) that index.json no longer references. Dry run by default.",
        discussion: """
            Deleted works leave their thumbnails behind: the index stops referencing them, nothing removes them.
            Without --execute this lists what would go. Files newer than index.json are left alone, so a prune
            while the workers run never takes a thumbnail whose work has not reached the index yet.
            """)

    @Option(help: "The output directory the thumb and index workers share.")
    var out: String

    @Flag(help: "Remove the files instead of listing them.")
    var execute = false

    func run() throws {
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
        let plan = try PrunePlan(output: output, index: index, indexWritten: written)
        for candidate in plan.candidates { print((execute ? "removed " : "would remove ") + candidate.path) }
        if execute {
            for candidate in plan.candidates {
                try FileManager.default.removeItem(at: output.appendingPathComponent(candidate.path))
            }
        }
        print(
            "\(plan.candidates.count) unreferenced files, \(plan.bytes) bytes"
                + (execute ? " removed" : "; run again with --execute to remove them"))
    }
}
