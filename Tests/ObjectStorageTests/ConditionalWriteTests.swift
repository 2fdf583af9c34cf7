import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import ObjectStorage
import Testing

/// A conditional write replaces only what its writer last saw, in a folder and in a bucket on
/// Ceph's gateway and moto: what fences a writer that stalled between its fence and its write.
@Suite("Conditional writes to the output", .timeLimit(.minutes(10)))
struct ConditionalWriteTests {
    /// Where a test writes: a folder, or a bucket of a fresh store of that kind.
    enum Output: CustomStringConvertible, Sendable {
        case folder
        case bucket(S3TestStore.Kind)

        static var all: [Output] { [.folder] + S3TestStore.Kind.selected.map(Output.bucket) }

        var description: String {
            switch self {
            case .folder: "a folder"
            case .bucket(let kind): "a bucket on \(kind.rawValue)"
            }
        }

        func with(_ body: (any OutputStore) async throws -> Void) async throws {
            switch self {
            case .folder:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    UniqueName.make("conditional"))
                defer { try? FileManager.default.removeItem(at: folder) }
                try await body(FolderOutputStore(directory: folder))
            case .bucket(let kind):
                let store = try await S3TestStore.start(kind)
                defer { store.stop() }
                let client = try await store.makeBucket("s3://\(UniqueName.make("conditional").lowercased())/site")
                try await body(BucketOutputStore(client: client))
            }
        }
    }

    @Test(
        "a write over a version replaced since, or where nothing was and something is, is refused for the moment and changes nothing; over the version there, it is written",
        arguments: Output.all)
    func replacesOnlyWhatItSaw(_ output: Output) async throws {
        try await output.with { store in
            try await offCooperativePool {
                let path = "works/0001.jsonl"
                let first = try store.write([(path, Array("one".utf8))], durable: false, conditions: [path: .absent])[0]
                #expect(try store.readVersioned(path)?.version == first)
                #expect(try store.readVersioned(path)?.bytes == Array("one".utf8))
                // Another writer, which saw the first version.
                let second = try store.write(
                    [(path, Array("two".utf8))], durable: false, conditions: [path: .version(first)])[0]
                #expect(second != first)
                for condition in [OutputCondition.version(first), .absent] {
                    let refused = #expect(throws: OutputConflict.self) {
                        try store.write([(path, Array("stale".utf8))], durable: false, conditions: [path: condition])
                    }
                    #expect(refused == OutputConflict(path: path, expected: condition))
                    #expect(refused.map { FailureClass.of($0) } == .forNow)
                    #expect(try store.read(path) == Array("two".utf8))
                    #expect(try store.version(of: path) == second)
                }
                // Unconditional writes pass as ever, and a file with no condition beside one that fails.
                try store.write(Array("three".utf8), to: path, durable: false)
                #expect(try store.read(path) == Array("three".utf8))
                #expect(try store.readVersioned("works/none.jsonl") == nil)
            }
        }
    }

    @Test("a folder compares every condition of a call before it renames any file")
    func folderBatchIsAllOrNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("conditional"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FolderOutputStore(directory: folder)
        let kept = try store.write(Array("kept".utf8), to: "works/0002.jsonl", durable: false)
        #expect(throws: OutputConflict.self) {
            try store.write(
                [("works/0001.jsonl", Array("new".utf8)), ("works/0002.jsonl", Array("stale".utf8))], durable: false,
                conditions: ["works/0001.jsonl": .absent, "works/0002.jsonl": .absent])
        }
        #expect(try store.read("works/0001.jsonl") == nil)
        #expect(try store.version(of: "works/0002.jsonl") == kept)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("works").path)
        #expect(names == ["0002.jsonl"], "no temporary file is left")
    }

    @Test(
        "in a folder, a conditional write renames nothing while another process holds the write lock; once it is let go, it compares with what that one renamed"
    )
    func folderWriteWaitsForTheLock() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("conditional"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FolderOutputStore(directory: folder, lockPatience: .milliseconds(50))
        let path = "works/0001.jsonl"
        let seen = try store.write(Array("one".utf8), to: path, durable: false)
        // Another writer holds the lock (a lock file descriptor of its own, as another process has).
        let descriptor = open(folder.appendingPathComponent(FolderWriteLock.fileName).path, O_RDWR | O_CREAT, 0o644)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX) == 0)
        let stale = {
            try store.write([(path, Array("stale".utf8))], durable: false, conditions: [path: .version(seen)])
        }
        let busy = #expect(throws: FolderWriteLock.Busy.self) { try stale() }
        #expect(busy.map { FailureClass.of($0) } == .forNow)
        #expect(try store.version(of: path) == seen, "nothing renamed while the lock is held")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("works").path)
        #expect(names == ["0001.jsonl"], "no temporary file is left")
        // The holder replaces the file, then lets the lock go: the stale write now finds it.
        try store.write(Array("theirs".utf8), to: path, durable: false)
        flock(descriptor, LOCK_UN)
        #expect(throws: OutputConflict.self) { try stale() }
        #expect(try store.read(path) == Array("theirs".utf8))
    }
}
