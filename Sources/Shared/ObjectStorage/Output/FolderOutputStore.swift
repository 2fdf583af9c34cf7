import ArtpipeSupport
import Foundation

/// Published files under a folder (`--out DIR`): each written to a temporary file and renamed
/// over the old one.
package struct FolderOutputStore: OutputStore {
    package let directory: URL
    /// How long a conditional write waits for the folder's write lock (``FolderWriteLock``).
    let lockPatience: Duration

    package init(directory: URL, lockPatience: Duration = FolderWriteLock.patience) {
        (self.directory, self.lockPatience) = (directory, lockPatience)
    }

    package var description: String { directory.path }

    /// One write per core: a write is mostly the disk's and the CPU's work, not waiting.
    package var writeConcurrency: Int { 1 }

    package func address(of path: String) -> String { url(path).path }

    private func url(_ path: String) -> URL { directory.appendingPathComponent(path) }

    package func read(_ path: String) throws -> [UInt8]? {
        try readVersioned(path)?.bytes
    }

    /// The bytes and the version of one open file: what was read is what the version names.
    package func readVersioned(_ path: String) throws -> (bytes: [UInt8], version: OutputVersion)? {
        let descriptor = open(url(path).path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw FileWriteError(path: url(path).path, reason: String(cString: strerror(errno)), action: .read)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw FileWriteError(path: url(path).path, reason: String(cString: strerror(errno)), action: .read)
        }
        do {
            return (Array(try handle.readToEnd() ?? Data()), Self.version(status))
        } catch {
            throw FileWriteError(path: url(path).path, reason: error.localizedDescription, action: .read)
        }
    }

    package func version(of path: String) throws -> OutputVersion? {
        var status = stat()
        guard stat(url(path).path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Self.version(status)
    }

    /// A folder that does not exist holds nothing; one that cannot be read is an error, never
    /// taken for an empty one.
    package func versions(in folder: String) throws -> [String: OutputVersion] {
        let directory = url(folder).path
        // The folder opened once, each name stat'ed relative to it: a URL and a path walk a
        // file were most of a listing of thousands (profiled at a million works).
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return [:] }
            throw FileWriteError(path: directory, reason: String(cString: strerror(errno)), action: .list)
        }
        defer { close(descriptor) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw FileWriteError(path: directory, reason: error.localizedDescription, action: .list)
        }
        var versions: [String: OutputVersion] = [:]
        versions.reserveCapacity(names.count)
        for name in names where !name.hasPrefix(".") {
            var status = stat()
            guard fstatat(descriptor, name, &status, 0) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            versions[folder.isEmpty ? name : "\(folder)/\(name)"] = Self.version(status)
        }
        return versions
    }

    @discardableResult
    package func write(_ bytes: [UInt8], to path: String, durable: Bool) throws -> OutputVersion {
        try write([(path, bytes)], durable: durable)[0]
    }

    /// All in one ``AtomicFile/write(_:durable:renaming:)``: each folder flushed once, not once a
    /// file. With `conditions`, the renames happen under the folder's write lock
    /// (``FolderWriteLock``), after every condition was compared with what the files hold.
    @discardableResult
    package func write(
        _ files: [(path: String, bytes: [UInt8])], durable: Bool, conditions: [String: OutputCondition]
    ) throws -> [OutputVersion] {
        let batch = files.map { (data: Data($0.bytes), url: url($0.path)) }
        let renaming = { (renames: () throws -> Void) throws in
            guard !conditions.isEmpty else { return try renames() }
            try FolderWriteLock(directory: directory, patience: lockPatience).holding {
                for (path, condition) in conditions.sorted(by: { $0.key < $1.key })
                where !condition.holds(for: try version(of: path)) {
                    throw OutputConflict(path: path, expected: condition)
                }
                try renames()
            }
        }
        do {
            return try AtomicFile.write(batch, durable: durable, renaming: renaming).map(Self.version)
        } catch is FileWriteError {
            // Perhaps the first files of their folders: make the folders (another thread may be
            // making them too; that is no error), then write again, which fails for good if that
            // was not it.
            for folder in Set(batch.map { $0.url.deletingLastPathComponent() }) {
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            return try AtomicFile.write(batch, durable: durable, renaming: renaming).map(Self.version)
        }
    }

    package func remove(_ path: String) throws {
        if unlink(url(path).path) != 0 && errno != ENOENT {
            throw FileWriteError(path: url(path).path, reason: String(cString: strerror(errno)))
        }
    }

    package func markUsed(_ path: String) throws -> Bool {
        utimensat(AT_FDCWD, url(path).path, nil, 0) == 0
    }

    private static func version(_ status: stat) -> OutputVersion {
        OutputVersion(
            "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)")
    }
}
