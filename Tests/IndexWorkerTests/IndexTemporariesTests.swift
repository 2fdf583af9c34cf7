import ArtpipeTestKit
import Foundation
import IndexWorker
import KafkaClient
import ObjectStorage
import Testing

@Suite("The index's output after a SIGKILL")
struct IndexTemporariesTests {
    @Test("a start sweeps old temporaries of killed writes from the index's and the summaries' folders, nothing else")
    func sweep() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "index-sweep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let hourAgo = Date().addingTimeInterval(-3_600)
        var stale: [String] = []
        var kept: [String] = []
        for folder in ["", "works/", "gallery/", ".artpipe-index/", ".artpipe-index/shards/", ".artpipe-index/pages/"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
            stale.append("\(folder).0a3.jsonl.4242.1234567.tmp")
            kept += ["\(folder).0a4.jsonl.4242.7654321.tmp", "\(folder)0a3.jsonl"]
        }
        for path in stale + kept {
            try Data("x".utf8).write(to: directory.appendingPathComponent(path))
        }
        for path in stale + kept where !path.hasSuffix("7654321.tmp") {
            try FileManager.default.setAttributes(
                [.modificationDate: hourAgo], ofItemAtPath: directory.appendingPathComponent(path).path)
        }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "index-sweep-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let stages = try IndexStages(
            partitions: 1, output: FolderOutputStore(directory: directory),
            kafka: KafkaClientConfiguration(brokers: "127.0.0.1:9"), state: try StateFolder(state),
            storeThreads: .indexTests, pageThreads: .indexTests, logger: .test)
        #expect(stages.publisher.removeStaleTemporaries() == stale.count)
        for path in stale {
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path), "\(path)")
        }
        for path in kept {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path), "\(path)")
        }
    }
}
