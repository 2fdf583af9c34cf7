import Foundation
import Logging
import Synchronization

/// Published files as objects in an S3-compatible bucket (`--out s3://BUCKET/PREFIX`): each
/// written by one PUT, which replaces an object whole, with the `Content-Type` and
/// `Cache-Control` a bucket serving the gallery needs.
///
/// A failure of the store is thrown as it comes (``ObjectStoreError/isTransient`` says whether
/// it may pass): callers retry the page or the publish, and nothing counts as written before
/// the store said so.
package final class BucketOutputStore: OutputStore {
    package let client: S3Client
    /// How old an object reused by ``markUsed(_:)`` may be before it is copied onto itself.
    let touchAfter: Duration
    let logger: Logger
    /// Set once the store answered a conditional PUT with `NotImplemented`: it is written
    /// unconditionally from then on, as stores without conditional writes must be.
    private let conditionsRefused = Atomic<Bool>(false)
    /// ``IfMatchForm``: unknown until an `If-Match` passed.
    private let ifMatchForm = Atomic<Int>(0)

    /// - Parameter touchAfter: reused objects last written longer ago than this are copied onto
    ///   themselves (a request like a PUT), which renews the time `prune` reads; younger ones
    ///   cost a HEAD only.
    package init(
        client: S3Client, touchAfter: Duration = .seconds(3_600), logger: Logger = Logger(label: "artpipe.output")
    ) {
        self.client = client
        self.touchAfter = touchAfter
        self.logger = logger
    }

    package var description: String { client.location.description }

    /// Requests in flight at once from one publish: they wait on the network, not on a core.
    package var writeConcurrency: Int { 16 }

    package func address(of path: String) -> String {
        "s3://\(client.location.bucket)/\(client.location.prefix)\(path)"
    }

    package func read(_ path: String) throws -> [UInt8]? {
        try readVersioned(path)?.bytes
    }

    package func readVersioned(_ path: String) throws -> (bytes: [UInt8], version: OutputVersion)? {
        try client.blocking.getVersioned(path).map { ($0.body, OutputVersion($0.etag)) }
    }

    package func version(of path: String) throws -> OutputVersion? {
        try client.blocking.head(path).map { OutputVersion($0.etag) }
    }

    package func versions(in folder: String) throws -> [String: OutputVersion] {
        var versions: [String: OutputVersion] = [:]
        try client.blocking.listAll(prefix: folder.isEmpty ? "" : "\(folder)/", directOnly: true) { object in
            versions[object.key] = OutputVersion(object.etag)
        }
        return versions
    }

    /// A PUT is durable once answered: `durable` changes nothing here.
    @discardableResult
    package func write(_ bytes: [UInt8], to path: String, durable: Bool) throws -> OutputVersion {
        try write(bytes, to: path, condition: nil)
    }

    /// One PUT after another, each conditional where `conditions` names its path (`If-Match`
    /// with the ETag, `If-None-Match: *` for nothing there): the store compares and writes in
    /// one step, so a writer that stalled between its fence and its PUT cannot replace another
    /// writer's object.
    @discardableResult
    package func write(
        _ files: [(path: String, bytes: [UInt8])], durable: Bool, conditions: [String: OutputCondition]
    ) throws -> [OutputVersion] {
        try files.map { try write($0.bytes, to: $0.path, condition: conditions[$0.path]) }
    }

    private func write(_ bytes: [UInt8], to path: String, condition: OutputCondition?) throws -> OutputVersion {
        let condition = conditionsRefused.load(ordering: .relaxed) ? nil : condition
        let put = { (precondition: (name: String, value: String)?) in
            try self.client.blocking.put(
                path, body: bytes, contentType: OutputMediaType.contentType(of: path),
                cacheControl: OutputMediaType.cacheControl(of: path), precondition: precondition)
        }
        var etag: String
        do {
            switch condition {
            case nil: etag = try put(nil)
            case .absent: etag = try put(("if-none-match", "*"))
            case .version(let version): etag = try putIfMatch(version, put: put)
            }
        } catch let error as ObjectStoreError where condition != nil && error.isRefusal(of: condition!) {
            throw OutputConflict(path: path, expected: condition!)
        } catch let error as ObjectStoreError where condition != nil && error.notImplemented {
            if !conditionsRefused.exchange(true, ordering: .relaxed) {
                logger.warning(
                    "the object store refuses conditional writes: index files are written unconditionally, so a copy that stalled mid-write may put back an older file for a moment",
                    metadata: ["s3.location": "\(client.location.description)", "reason": "\(error)"])
            }
            return try write(bytes, to: path, condition: nil)
        }
        // A store that names no ETag in its answer is asked for it: an empty version would
        // differ from every listing.
        if etag.isEmpty, let head = try client.blocking.head(path) { etag = head.etag }
        return OutputVersion(etag)
    }

    /// A PUT with `If-Match`. HTTP quotes an entity tag; Ceph's gateway (18.2) compares the header
    /// with the ETag as it keeps it, bare, and refuses the quoted form. So the bare form first,
    /// and on a refusal once the quoted one, until one form has passed: from then on that form
    /// alone, and a refusal is a conflict.
    private func putIfMatch(
        _ version: OutputVersion, put: ((name: String, value: String)?) throws -> String
    ) throws -> String {
        let known = IfMatchForm(rawValue: ifMatchForm.load(ordering: .relaxed)) ?? .unknown
        let forms: [IfMatchForm] = known == .unknown ? [.bare, .quoted] : [known]
        var refusal: ObjectStoreError?
        for form in forms {
            let value = form == .quoted ? "\"\(version.token)\"" : version.token
            do {
                let etag = try put(("if-match", value))
                ifMatchForm.store(form.rawValue, ordering: .relaxed)
                return etag
            } catch let error as ObjectStoreError where error.preconditionFailed {
                refusal = error
            } catch {
                // A form refused before stays a refusal, whatever the next form met.
                throw refusal ?? error
            }
        }
        throw refusal!
    }

    /// Which form of `If-Match` the store takes (``putIfMatch(_:put:)``).
    private enum IfMatchForm: Int {
        case unknown, bare, quoted
    }

    package func remove(_ path: String) throws {
        let failures = try client.blocking.delete([path])
        if let failure = failures.first {
            throw failure.error(request: "DELETE \(client.location.bucket)/\(path)")
        }
    }

    /// Whether the object is there: a HEAD, then, when it was last written more than
    /// `touchAfter` ago, a copy onto itself, which renews its `Last-Modified` (S3 has no other
    /// way to set it) and fails when a prune took the object meanwhile.
    package func markUsed(_ path: String) throws -> Bool {
        guard let object = try client.blocking.head(path) else { return false }
        if let written = object.lastModified, Date().timeIntervalSince(written) < touchAfter.seconds {
            return true
        }
        return try client.blocking.touch(
            path, contentType: OutputMediaType.contentType(of: path),
            cacheControl: OutputMediaType.cacheControl(of: path))
    }

    /// Every object under `folder`, at any depth, with its size and `Last-Modified`: a listing
    /// of 1,000 keys a request.
    package func objects(under folder: String, visit: (_ path: String, _ bytes: Int, _ written: Date?) throws -> Void)
        throws
    {
        try client.blocking.listAll(prefix: "\(folder)/") { object in
            try visit(object.key, object.size, object.lastModified)
        }
    }

    /// When the object was last written; nil when it is not there.
    package func lastModified(of path: String) throws -> Date?? {
        try client.blocking.head(path).map(\.lastModified)
    }

    /// Deletes the objects, 1,000 a request. A key the store could not delete this time (a
    /// busy Ceph answers `UnknownError` for some) is tried again, three more times over about
    /// 3.5 s; throws when one still fails. `confirm` runs before every request and stops them by throwing.
    package func remove(batch paths: [String], confirm: () throws -> Void = {}) throws {
        for start in stride(from: 0, to: paths.count, by: 1_000) {
            var remaining = Array(paths[start..<min(start + 1_000, paths.count)])
            for attempt in 1...4 {
                try confirm()
                let failures = try client.blocking.delete(remaining)
                guard let failure = failures.first else { break }
                guard attempt < 4 else {
                    throw failure.error(
                        request:
                            "DELETE \(client.location.bucket)/… (\(failures.count) keys not deleted after 4 tries, "
                            + "such as \(failure.key))")
                }
                remaining = failures.map(\.key)
                Thread.sleep(forTimeInterval: 0.5 * Double(1 << (attempt - 1)))
            }
        }
    }
}
