/// Where the thumb and index workers put what they publish: a folder (``FolderOutputStore``)
/// or a bucket (``BucketOutputStore``). Paths are relative and `/`-separated
/// (`works/0001.jsonl`, `thumbs/200/…`), the same in both.
///
/// Every call blocks its thread: call it from a thread pool, never from Swift's cooperative pool.
package protocol OutputStore: Sendable {
    /// The folder's path, or `s3://bucket/prefix at endpoint`, for messages.
    var description: String { get }

    /// Where `path` is, for messages: a file's path, or `s3://bucket/key`.
    func address(of path: String) -> String

    /// How many writes at once are worth making: one per core for a folder; more for a store,
    /// whose requests mostly wait on the network.
    var writeConcurrency: Int { get }

    /// The object's bytes; nil when there is none.
    func read(_ path: String) throws -> [UInt8]?

    /// Changes whenever the object at `path` is replaced; nil when there is none.
    func version(of path: String) throws -> OutputVersion?

    /// Every object directly in `folder` (no deeper), by path, with its version.
    func versions(in folder: String) throws -> [String: OutputVersion]

    /// Writes `bytes` whole: a reader sees the old object or the new one, never a part.
    /// `durable: false` allows a file to be lost to a power cut (a folder's files are then not
    /// flushed), for what is rebuilt and compared again after a restart.
    @discardableResult
    func write(_ bytes: [UInt8], to path: String, durable: Bool) throws -> OutputVersion

    /// Writes each of `files` whole, in order, as ``write(_:to:durable:)`` does; a store may
    /// share the work between them (a folder flushes each of its folders once for all). Returns
    /// their versions, in order. A failure may leave the files before it written.
    @discardableResult
    func write(_ files: [(path: String, bytes: [UInt8])], durable: Bool) throws -> [OutputVersion]

    /// Removes the object; one that is not there is not an error.
    func remove(_ path: String) throws

    /// Whether the object is there, marking it as just used where the store can (a folder
    /// sets the file's modification time, which `prune` reads).
    func markUsed(_ path: String) throws -> Bool
}

extension OutputStore {
    /// One write after another.
    @discardableResult
    package func write(_ files: [(path: String, bytes: [UInt8])], durable: Bool) throws -> [OutputVersion] {
        try files.map { try write($0.bytes, to: $0.path, durable: durable) }
    }
}
