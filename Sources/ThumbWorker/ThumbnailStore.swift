import ArtpipeSupport
import Crypto
import Foundation
import ObjectStorage
import PipelineContract

/// Thumbnail files under `thumbs/<size>/<folder>/` of the output store (a folder or a bucket),
/// and a manifest per version of an artwork's image under `thumbs/.manifests/<folder>/` saying
/// which image URL and settings they were made from, or why that image can never give
/// thumbnails (``ThumbnailFileName`` names both: each version its own files).
/// Every file is written whole or not at all; the manifest last, so it never names a file
/// that is not there.
///
/// Its calls block on the store: the handler makes them on its file thread pool.
package struct ThumbnailStore: Sendable {
    let output: any OutputStore
    /// Identifies the settings (sizes, qualities, formats); a change makes thumbnails again. JPEG
    /// alone and WebP alone keep the keys of the builds before both could be made (WebP alone
    /// named by its own quality, however it is given).
    let settingsKey: String

    package init(output: any OutputStore, configuration: Thumbnailer.Configuration) {
        self.output = output
        let formats = configuration.orderedFormats
        let quality = configuration.quality(of: formats[0])
        let webpQuality = configuration.quality(of: .webp)
        self.settingsKey =
            "sizes=\(configuration.sizes.sorted().map(String.init).joined(separator: ","));q=\(quality);"
            + formats.map(\.fileExtension).joined(separator: "+")
            + (formats.count > 1 && formats.contains(.webp) && webpQuality != quality ? ";webpq=\(webpQuality)" : "")
    }

    package init(outputDirectory: URL, configuration: Thumbnailer.Configuration) {
        self.init(output: FolderOutputStore(directory: outputDirectory), configuration: configuration)
    }

    struct Manifest: Codable {
        let imageURL: String
        let settings: String
        let files: [PageThumbnails.File]
        /// Set when the image failed in a way that would not change on another try.
        let failure: String?
        /// The thumbnails' placeholder colour (``Thumbnailer/Thumbnails/colour``); absent in
        /// manifests earlier builds wrote.
        var colour: String? = nil
    }

    /// The version of `imageURL`'s thumbnails under these settings (``ThumbnailFileName``).
    func version(of imageURL: String) -> String {
        ThumbnailFileName.version(imageURL: imageURL, settings: settingsKey)
    }

    private func manifestPath(_ objectNumber: String, imageURL: String) -> String {
        ThumbnailFileName.manifestPath(objectNumber, version: version(of: imageURL))
    }

    /// The outcome of an earlier run for the same image and settings: its files, when they
    /// are all still there, or its lasting failure.
    ///
    /// Reusing files marks them as just used (their modification time becomes now), which is
    /// what tells a `prune` running meanwhile to keep them; a file that is gone by then, or
    /// taken by that prune, makes the thumbnails again.
    func existing(objectNumber: String, imageURL: String) throws -> PageThumbnails.Item? {
        let versioned = manifestPath(objectNumber, imageURL: imageURL)
        let unversioned = ThumbnailFileName.unversionedManifestPath(objectNumber)
        for path in [versioned, unversioned] {
            guard let bytes = try output.read(path),
                let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(bytes)),
                manifest.imageURL == imageURL, manifest.settings == settingsKey
            else { continue }
            if let failure = manifest.failure {
                _ = try output.markUsed(path)
                return PageThumbnails.Item(objectNumber: objectNumber, status: .failed, reason: failure)
            }
            for file in manifest.files {
                guard try output.markUsed(file.path) else { return nil }
            }
            guard try output.markUsed(path) else { return nil }
            var item = PageThumbnails.Item(objectNumber: objectNumber, status: .ok, files: manifest.files)
            item.colour = manifest.colour
            return item
        }
        return nil
    }

    /// The bytes of `file` of an item ``existing(objectNumber:imageURL:)`` gave, if they are
    /// still the bytes its digest names.
    func read(_ file: PageThumbnails.File) throws -> [UInt8]? {
        guard let bytes = try output.read(file.path), SHA256.hexDigest(of: bytes) == file.sha256 else { return nil }
        return bytes
    }

    /// Adds `colour` to the manifest of an item ``existing(objectNumber:imageURL:)`` gave
    /// without one, as ``write(objectNumber:imageURL:thumbnails:)`` would have written it.
    func record(colour: String, of item: PageThumbnails.Item, imageURL: String) throws {
        try writeManifest(
            Manifest(imageURL: imageURL, settings: settingsKey, files: item.files, failure: nil, colour: colour),
            for: item.objectNumber)
    }

    /// The prune fence of a bucket (``PruneFence``); nil for a folder, where `prune` renames
    /// each file aside and needs no fence.
    func pruneFence() throws -> PruneFence? {
        guard output is BucketOutputStore else { return nil }
        return try PruneFence.read(from: output)
    }

    /// Removes what writes killed mid-way left in the thumbnail and manifest folders of a
    /// folder store (a bucket has none: a PUT is whole or absent). Returns the count.
    @discardableResult
    package func removeStaleTemporaries() -> Int {
        guard let folder = output as? FolderOutputStore else { return 0 }
        let thumbs = folder.directory.appendingPathComponent("thumbs")
        let fileManager = FileManager.default
        var removed = 0
        for folder in (try? fileManager.contentsOfDirectory(atPath: thumbs.path)) ?? [] {
            let sizeFolder = thumbs.appendingPathComponent(folder)
            for spread in (try? fileManager.contentsOfDirectory(atPath: sizeFolder.path)) ?? [] {
                removed += AtomicFile.removeStaleTemporaries(in: sizeFolder.appendingPathComponent(spread))
            }
        }
        return removed
    }

    /// Remembers that this image can never give thumbnails, so it is not fetched again.
    func recordFailure(objectNumber: String, imageURL: String, reason: String) throws {
        try writeManifest(
            Manifest(imageURL: imageURL, settings: settingsKey, files: [], failure: reason), for: objectNumber)
    }

    /// Writes the thumbnails, then the manifest, and gives the item that lists them (paths
    /// relative to the output directory).
    func write(objectNumber: String, imageURL: String, thumbnails: Thumbnailer.Thumbnails) throws
        -> PageThumbnails.Item
    {
        var files: [PageThumbnails.File] = []
        let version = version(of: imageURL)
        for thumbnail in thumbnails.sizes.sorted(by: { ($0.size, $0.format) < ($1.size, $1.format) }) {
            let relative = ThumbnailFileName.thumbnailPath(
                objectNumber, version: version, size: thumbnail.size, fileExtension: thumbnail.format.fileExtension)
            try output.write(thumbnail.data, to: relative, durable: true)
            files.append(
                PageThumbnails.File(
                    size: thumbnail.size, path: relative, width: thumbnail.width, height: thumbnail.height,
                    bytes: thumbnail.data.count, sha256: SHA256.hexDigest(of: thumbnail.data)))
        }
        try writeManifest(
            Manifest(
                imageURL: imageURL, settings: settingsKey, files: files, failure: nil, colour: thumbnails.colour),
            for: objectNumber)
        var item = PageThumbnails.Item(objectNumber: objectNumber, status: .ok, files: files)
        item.colour = thumbnails.colour
        return item
    }

    private func writeManifest(_ manifest: Manifest, for objectNumber: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try output.write(
            Array(try encoder.encode(manifest)), to: manifestPath(objectNumber, imageURL: manifest.imageURL),
            durable: true)
    }
}
