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
        let manifests = Set(works.map { ThumbnailFileName.make($0.objectNumber) + ".json" })
        let thumbs = output.appendingPathComponent("thumbs")
        var candidates: [Candidate] = []
        let fileManager = FileManager.default
        for folder in (try? fileManager.contentsOfDirectory(atPath: thumbs.path).sorted()) ?? [] {
            let directory = thumbs.appendingPathComponent(folder)
            for name in try fileManager.contentsOfDirectory(atPath: directory.path).sorted() {
                let relative = "thumbs/\(folder)/\(name)"
                let unreferenced =
                    folder == ".manifests" ? !manifests.contains(name) : !referenced.contains(relative)
                // Temporary files of a write in progress, and anything newer than the index, stay.
                guard unreferenced, !name.hasPrefix(".") else { continue }
                let attributes = try fileManager.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
                guard (attributes[.type] as? FileAttributeType) == .typeRegular,
                    let modified = attributes[.modificationDate] as? Date, modified < indexWritten
                else { continue }
                candidates.append(Candidate(path: relative, bytes: (attributes[.size] as? NSNumber)?.intValue ?? 0))
            }
        }
        self.candidates = candidates
    }
}
