import Foundation

/// The files under `DIR/thumbs` that no work can point to any more: thumbnails of deleted
/// works and of versions the index has moved past, and their manifests (`artpipe prune`).
///
/// A file stays when any of these holds, so a prune while the workers run takes nothing a
/// live work can point to:
/// - the index references it (or its version: a version's manifest stays with its files);
/// - its work is in the index waiting for thumbnails, or failed (every version stays);
/// - it was written or reused (``ThumbnailStore/existing(objectNumber:imageURL:)`` marks
///   reused files) at or after `cutoff` (`--keep-recent` before `index.json` was written):
///   its page may still be on its way to the index.
package struct ThumbnailPrunePlan {
    package struct Candidate {
        /// Relative to the output directory.
        package let path: String
        package let bytes: Int
        /// As the plan saw it, to the nanosecond: any other value later means it was used since.
        let modified: timespec
    }

    package let candidates: [Candidate]

    package var bytes: Int { candidates.map(\.bytes).reduce(0, +) }

    /// - Parameters:
    ///   - referencedPaths: the thumbnail paths the index shows.
    ///   - unsettledObjectNumbers: the works the index shows as pending or failed.
    package init(output: URL, referencedPaths: [String], unsettledObjectNumbers: [String], cutoff: Date) throws {
        let isUnused = Self.unusedRule(referencedPaths: referencedPaths, unsettledObjectNumbers: unsettledObjectNumbers)
        let fileManager = FileManager.default
        let thumbs = output.appendingPathComponent("thumbs")
        var candidates: [Candidate] = []
        // Every depth: files of the flat layout before thumbnails were spread over folders count too.
        let paths = (fileManager.enumerator(atPath: thumbs.path)?.allObjects as? [String]) ?? []
        for path in paths.sorted() {
            guard isUnused(path) else { continue }
            var status = stat()
            guard lstat(thumbs.appendingPathComponent(path).path, &status) == 0 else {
                if errno == ENOENT { continue }
                throw PruneError(path: "thumbs/\(path)", reason: String(cString: strerror(errno)))
            }
            let modified = status.st_mtim
            guard status.st_mode & S_IFMT == S_IFREG,
                Date(timeIntervalSince1970: TimeInterval(modified.tv_sec) + TimeInterval(modified.tv_nsec) / 1e9)
                    < cutoff
            else { continue }
            candidates.append(Candidate(path: "thumbs/\(path)", bytes: Int(status.st_size), modified: modified))
        }
        self.candidates = candidates
    }

    /// Whether a path under `thumbs/` is one no work can point to, whatever its age: neither
    /// its version referenced nor its work unsettled. Names starting with a dot (a write in
    /// progress, the prune fence) are never unused.
    static func unusedRule(referencedPaths: [String], unsettledObjectNumbers: [String]) -> (String) -> Bool {
        let referenced = Set(referencedPaths.map { ThumbnailFileName.owner(ofPath: $0).version })
        let unsettled = Set(unsettledObjectNumbers.map { ThumbnailFileName.workOwner($0) })
        return { path in
            let owner = ThumbnailFileName.owner(ofPath: path)
            return !referenced.contains(owner.version) && !unsettled.contains(owner.work)
                && !(path.split(separator: "/").last ?? "").hasPrefix(".")
        }
    }

    /// Removes `candidate` unless a thumb worker reused it since the plan was made: the file
    /// is first renamed out of the way, so a worker marking it as used from then on finds it
    /// gone and makes it again; one that marked it before is seen by its modification time,
    /// and the file goes back. Returns whether it was removed.
    package func remove(_ candidate: Candidate, from output: URL) throws -> Bool {
        let url = output.appendingPathComponent(candidate.path)
        // Named as AtomicFile names temporaries, so a prune killed here leaves nothing a sweep misses.
        let aside = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp")
        guard rename(url.path, aside.path) == 0 else {
            if errno == ENOENT { return false }
            throw PruneError(path: candidate.path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        guard stat(aside.path, &status) == 0 else {
            throw PruneError(path: candidate.path, reason: String(cString: strerror(errno)))
        }
        if status.st_mtim.tv_sec != candidate.modified.tv_sec || status.st_mtim.tv_nsec != candidate.modified.tv_nsec {
            // EEXIST: a worker has written it again meanwhile, which is as good.
            if link(aside.path, url.path) != 0 && errno != EEXIST {
                throw PruneError(path: candidate.path, reason: String(cString: strerror(errno)))
            }
            unlink(aside.path)
            return false
        }
        guard unlink(aside.path) == 0 else {
            throw PruneError(path: candidate.path, reason: String(cString: strerror(errno)))
        }
        return true
    }
}
