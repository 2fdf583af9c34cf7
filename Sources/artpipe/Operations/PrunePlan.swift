import Foundation
import IndexWorker
import ThumbWorker

/// The files under `DIR/thumbs` that no work can point to any more: thumbnails of deleted
/// works and of versions the index has moved past, and their manifests.
///
/// A file stays when any of these holds, so a prune while the workers run takes nothing a
/// live work can point to:
/// - `index.json` references it (or its version: a version's manifest stays with its files);
/// - its work is in `index.json` waiting for thumbnails, or failed (every version stays);
/// - it was written or reused (``ThumbnailStore/existing(objectNumber:imageURL:)`` marks
///   reused files) less than `keepRecent` before `index.json` was written, or at any time
///   after: its page may still be on its way to the index.
struct PrunePlan {
    struct Candidate {
        /// Relative to the output directory.
        let path: String
        let bytes: Int
        /// As the plan saw it, to the nanosecond: any other value later means it was used since.
        let modified: timespec
    }

    let candidates: [Candidate]

    var bytes: Int { candidates.map(\.bytes).reduce(0, +) }

    init(output: URL, index: ArtistIndex, indexWritten: Date, keepRecent: Duration) throws {
        let works = index.artists.flatMap(\.works)
        let referenced = Set(works.flatMap(\.thumbnails.values).map { ThumbnailFileName.owner(ofPath: $0).version })
        let unsettled = Set(
            works.filter { $0.thumbnailStatus == "pending" || $0.thumbnailStatus == "failed" }
                .map { ThumbnailFileName.workOwner($0.objectNumber) })
        let cutoff = indexWritten.addingTimeInterval(-keepRecent.seconds)
        let fileManager = FileManager.default
        let thumbs = output.appendingPathComponent("thumbs")
        var candidates: [Candidate] = []
        // Every depth: files of the flat layout before thumbnails were spread over folders count too.
        let paths = (fileManager.enumerator(atPath: thumbs.path)?.allObjects as? [String]) ?? []
        for path in paths.sorted() {
            let owner = ThumbnailFileName.owner(ofPath: path)
            // Temporary files of a write in progress stay.
            guard !referenced.contains(owner.version), !unsettled.contains(owner.work),
                !(path.split(separator: "/").last ?? "").hasPrefix(".")
            else { continue }
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

    /// Removes `candidate` unless a thumb worker reused it since the plan was made: the file
    /// is first renamed out of the way, so a worker marking it as used from then on finds it
    /// gone and makes it again; one that marked it before is seen by its modification time,
    /// and the file goes back. Returns whether it was removed.
    func remove(_ candidate: Candidate, from output: URL) throws -> Bool {
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

/// A file `prune --execute` could not remove or put back.
struct PruneError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "prune: \(path): \(reason)" }
}
