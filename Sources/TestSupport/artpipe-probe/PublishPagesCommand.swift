import ArgumentParser
import ArtpipeRuntime
import Foundation
import IndexWorker
import ObjectStorage
import PipelineContract

/// `artpipe-probe publish-pages`: the index of the pages of a file, as the staged index
/// publishes it (``StagedIndexBuild``), written into a folder by this process, so a test can
/// compare what processes with different hash seeds publish from the same input.
struct PublishPagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish-pages",
        abstract: "Index the pages in FILE (a JSON array of Page) into DIR and publish the index.")

    @Option(help: "A JSON array of pages, applied in order.")
    var pages: String
    @Option var out: String

    func run() throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let output = URL(fileURLWithPath: out, isDirectory: true)
        let pages = try JSONDecoder().decode([Page].self, from: Data(contentsOf: URL(fileURLWithPath: self.pages)))
        let store = FolderOutputStore(directory: output)
        for (path, bytes) in try StagedIndexBuild.files(pages.map { .page($0) }, partitions: 1) {
            try store.write(bytes, to: path, durable: false)
        }
    }
}
