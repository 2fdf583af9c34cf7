import ArtpipeSupport

/// An output whose writes and removals each ask a fence first: refused while the writer may
/// no longer own what it writes (``OutputFencedError``, for the moment). Reads pass.
package struct FencedOutputStore: OutputStore {
    /// The output written to.
    package let base: any OutputStore
    private let mayWrite: @Sendable () -> Bool

    /// - Parameter mayWrite: asked before every write and removal.
    package init(_ base: any OutputStore, mayWrite: @escaping @Sendable () -> Bool) {
        self.base = base
        self.mayWrite = mayWrite
    }

    package var description: String { base.description }
    package func address(of path: String) -> String { base.address(of: path) }
    package var writeConcurrency: Int { base.writeConcurrency }
    package func read(_ path: String) throws -> [UInt8]? { try base.read(path) }
    package func readVersioned(_ path: String) throws -> (bytes: [UInt8], version: OutputVersion)? {
        try base.readVersioned(path)
    }
    package func version(of path: String) throws -> OutputVersion? { try base.version(of: path) }
    package func versions(in folder: String) throws -> [String: OutputVersion] { try base.versions(in: folder) }

    @discardableResult
    package func write(_ bytes: [UInt8], to path: String, durable: Bool) throws -> OutputVersion {
        try fence(path)
        return try base.write(bytes, to: path, durable: durable)
    }

    /// The fence is asked once for all: a stall between two files, or between the fence and the
    /// write, is what `conditions` close (docs/architecture.md, "The fence").
    @discardableResult
    package func write(
        _ files: [(path: String, bytes: [UInt8])], durable: Bool, conditions: [String: OutputCondition]
    ) throws -> [OutputVersion] {
        try fence(files.first?.path ?? "")
        return try base.write(files, durable: durable, conditions: conditions)
    }

    package func remove(_ path: String) throws {
        try fence(path)
        try base.remove(path)
    }

    package func markUsed(_ path: String) throws -> Bool { try base.markUsed(path) }

    private func fence(_ path: String) throws {
        guard mayWrite() else { throw OutputFencedError(path: path) }
    }
}
