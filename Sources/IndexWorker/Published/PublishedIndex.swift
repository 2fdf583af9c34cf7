import Foundation
import ObjectStorage

/// Reads a published index back: the manifest alone, or every work.
package enum PublishedIndex {
    package struct ReadError: Error, CustomStringConvertible {
        package let description: String
    }

    /// `DIR/index.json`. Throws when it is missing, or is not an `artpipe-index/2` manifest.
    package static func manifest(in directory: URL) throws -> IndexManifest {
        try manifest(in: FolderOutputStore(directory: directory))
    }

    /// `index.json` in a folder or a bucket.
    package static func manifest(in output: any OutputStore) throws -> IndexManifest {
        try manifest(in: output, reading: output.read)
    }

    /// `index.json`, its bytes from `read`.
    static func manifest(in output: any OutputStore, reading read: (String) throws -> [UInt8]?) throws
        -> IndexManifest
    {
        let place = output.address(of: IndexLayout.manifestPath)
        let bytes: [UInt8]?
        do {
            bytes = try read(IndexLayout.manifestPath)
        } catch {
            throw ReadError(description: "cannot read \(place): \(error)")
        }
        guard let bytes else { throw ReadError(description: "cannot read \(place)") }
        let data = Data(bytes)
        let manifest: IndexManifest
        do {
            manifest = try JSONDecoder().decode(IndexManifest.self, from: data)
        } catch {
            throw ReadError(description: "\(place) is not an artpipe index (\(IndexLayout.schemaName))")
        }
        guard manifest.schema == IndexLayout.schemaName else {
            throw ReadError(
                description: "\(place) has schema \(manifest.schema); this artpipe reads \(IndexLayout.schemaName)")
        }
        return manifest
    }

    /// The whole index, the manifest and every bucket it names. For tools and tests: it holds
    /// every work in memory.
    package static func read(from directory: URL) throws -> (manifest: IndexManifest, index: ArtistIndex) {
        try read(from: FolderOutputStore(directory: directory))
    }

    /// The whole index in a folder or a bucket.
    package static func read(from output: any OutputStore) throws -> (manifest: IndexManifest, index: ArtistIndex) {
        try read(from: output, reading: output.read)
    }

    /// The whole index, each file's bytes from `read`.
    static func read(from output: any OutputStore, reading read: (String) throws -> [UInt8]?) throws
        -> (manifest: IndexManifest, index: ArtistIndex)
    {
        let manifest = try manifest(in: output, reading: read)
        var works: [String: [ArtistIndex.Work]] = [:]
        for bucket in Set(manifest.artists.flatMap(\.buckets)).sorted() {
            let path = "\(IndexLayout.worksFolder)/\(bucket).jsonl"
            guard let bytes = try? read(path) else {
                throw ReadError(description: "index.json names \(path), which cannot be read")
            }
            for line in try WorkLines.parse(Data(bytes), file: path) {
                works[line.artist, default: []].append(line.work)
            }
        }
        let artists = manifest.artists.map { artist in
            ArtistIndex.Artist(
                name: artist.name,
                works: (works[artist.name] ?? []).sorted {
                    ArtistIndex.scalarsPrecede($0.objectNumber, $1.objectNumber)
                })
        }
        let index = ArtistIndex(
            schema: manifest.schema, totals: manifest.totals, crawls: manifest.crawls, artists: artists)
        return (manifest, index)
    }
}
