import ArtpipeTestKit
import Foundation
import ObjectStorage
import PipelineContract
import Synchronization
import Testing

@testable import IndexWorker

/// Publishes with copies in turn and reads `index.json` after each round: it never shows
/// fewer works than it once did, and never counts a page whose works it does not show.
final class ManifestWatch: Sendable {
    let output: FolderOutputStore
    private let state: Mutex<(most: Int, pages: [Int: Page])>

    init(output: FolderOutputStore, pages: IndexInputs) {
        self.output = output
        state = Mutex((0, Dictionary(uniqueKeysWithValues: pages.pages.values.map { ($0.page, $0) })))
    }

    /// The most works `index.json` showed.
    var most: Int { state.withLock { $0.most } }

    /// A page sent since: counted from now on.
    func add(_ page: Page) {
        state.withLock { $0.pages[page.page] = page }
    }

    /// A round of each copy, one after another; returns the index's files as they are after.
    func round(_ copies: [StagedCopy]) async throws -> [String: [UInt8]] {
        for copy in copies {
            try await copy.publisher.publish()
            let (works, pages) = try IndexStagesTests.manifestWorks(output)
            let (most, counted) = state.withLock { state in
                (state.most, pages.map { state.pages[$0]?.artworks.count ?? 0 }.reduce(0, +))
            }
            #expect(works >= most, "index.json went from \(most) to \(works) works")
            #expect(works >= counted, "index.json counts \(pages.count) pages of \(counted) works but shows \(works)")
            state.withLock { $0.most = max($0.most, works) }
        }
        return try IndexStagesTests.published(output)
    }

    /// Rounds of `copies` until the index's files are `expected`; a timeout names some that differ.
    func waitUntilPublished(_ expected: [String: [UInt8]], by copies: [StagedCopy], _ what: String) async throws {
        var differing: [String] = []
        try await waitUntil("\(what); differing: \(differing.prefix(5))", timeout: .seconds(60)) {
            let files = try await round(copies)
            differing = Set(files.keys).union(expected.keys).filter { files[$0] != expected[$0] }.sorted()
            return differing.isEmpty
        }
    }
}
