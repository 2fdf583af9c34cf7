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

    /// The object's bytes with the version they are (a condition for a write over them,
    /// ``OutputCondition``); nil when there is none.
    func readVersioned(_ path: String) throws -> (bytes: [UInt8], version: OutputVersion)?

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
    ///
    /// A file `conditions` names is written only where its condition holds when it is written
    /// (a bucket: the PUT's `If-Match` or `If-None-Match: *`; a folder: compared under the
    /// folder's write lock, every condition of the call before any file is renamed); where one
    /// does not, ``OutputConflict`` is thrown and that file is not written.
    @discardableResult
    func write(
        _ files: [(path: String, bytes: [UInt8])], durable: Bool, conditions: [String: OutputCondition]
    ) throws -> [OutputVersion]

    /// Removes the object; one that is not there is not an error.
    func remove(_ path: String) throws

    /// Whether the object is there, marking it as just used where the store can (a folder
    /// sets the file's modification time, which `prune` reads).
    func markUsed(_ path: String) throws -> Bool
}

extension OutputStore {
    /// Unconditionally.
    @discardableResult
    package func write(_ files: [(path: String, bytes: [UInt8])], durable: Bool) throws -> [OutputVersion] {
        try write(files, durable: durable, conditions: [:])
    }
}
