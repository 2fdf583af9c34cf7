import IndexWorker
import ObjectStorage

extension OutputStore {
    /// Makes the output publish `index` alone, as a prune would find an index that holds only
    /// it: its files written, `index.json` last, and every other bucket file removed.
    func publishWhole(_ index: ArtistIndex) throws {
        let files = IndexLayout.files(for: index)
        for path in try IndexLayout.publishedVersions(in: self).keys where files[path] == nil {
            try remove(path)
        }
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) where path != IndexLayout.manifestPath {
            try write(bytes, to: path, durable: true)
        }
        try write(files[IndexLayout.manifestPath] ?? [], to: IndexLayout.manifestPath, durable: true)
    }
}
