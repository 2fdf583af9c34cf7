import Foundation
import IndexWorker
import ThumbWorker

/// The files under `DIR/thumbs` that `index.json` no longer references: thumbnails of deleted
/// works, and their manifests. Files written after the index (a thumbnail whose work is still
/// on its way to the index) are never candidates.
struct PrunePlan {
    struct Candidate {
        /// Relative to the output directory.
        let path: String
        let bytes: Int
    }

    let candidates: [Candidate]

    var bytes: Int { candidates.map(\.bytes).reduce(0, +) }

    init(output: URL, index: ArtistIndex, indexWritten: Date) throws {
        let works = index.artists.flatMap(\.works)
        let referenced = Set(works.flatMap(\.thumbnails.values))
        let manifests = Set(works.map { ThumbnailFileName.manifestPath($0.objectNumber) })
        let fileManager = FileManager.default
        let thumbs = output.appendingPathComponent("thumbs")
        var candidates: [Candidate] = []
        // Every depth: files of the flat layout before thumbnails were spread over folders count too.
        let paths = (fileManager.enumerator(atPath: thumbs.path)?.allObjects as? [String]) ?? []
        for path in paths.sorted() {
            let relative = "thumbs/\(path)"
            let unreferenced =
                relative.hasPrefix("thumbs/.manifests/")
                ? !manifests.contains(relative) : !referenced.contains(relative)
            // Temporary files of a write in progress, and anything newer than the index, stay.
            guard unreferenced, !(path.split(separator: "/").last ?? "").hasPrefix(".") else { continue }
            let attributes = try fileManager.attributesOfItem(atPath: thumbs.appendingPathComponent(path).path)
            guard (attributes[.type] as? FileAttributeType) == .typeRegular,
                let modified = attributes[.modificationDate] as? Date, modified < indexWritten
            else { continue }
            candidates.append(Candidate(path: relative, bytes: (attributes[.size] as? NSNumber)?.intValue ?? 0))
        }
        self.candidates = candidates
    }
}
