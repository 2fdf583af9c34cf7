import ArtpipeSupport
import Crypto
import Foundation
import PipelineContract

/// Thumbnail files under `DIR/thumbs/<size>/<folder>/`, and a manifest per version of an
/// artwork's image under `DIR/thumbs/.manifests/<folder>/` saying which image URL and settings
/// they were made from, or why that image can never give thumbnails (``ThumbnailFileName``
/// names both: each version its own files).
/// Every file is written whole or not at all; the manifest last, so it never names a file
/// that is not there.
package struct ThumbnailStore: Sendable {
    let outputDirectory: URL
    /// Identifies the settings (sizes, quality, format); a change makes thumbnails again.
    let settingsKey: String
    let fileExtension: String

    package init(outputDirectory: URL, configuration: Thumbnailer.Configuration) {
        self.outputDirectory = outputDirectory
        self.fileExtension = configuration.webp ? "webp" : "jpg"
        self.settingsKey =
            "sizes=\(configuration.sizes.sorted().map(String.init).joined(separator: ","));q=\(configuration.quality);\(fileExtension)"
    }

    struct Manifest: Codable {
        let imageURL: String
        let settings: String
        let files: [PageThumbnails.File]
        /// Set when the image failed in a way that would not change on another try.
        let failure: String?
    }

    private var thumbs: URL { outputDirectory.appendingPathComponent("thumbs") }

    /// The version of `imageURL`'s thumbnails under these settings (``ThumbnailFileName``).
    func version(of imageURL: String) -> String {
        ThumbnailFileName.version(imageURL: imageURL, settings: settingsKey)
    }

    private func manifestURL(_ objectNumber: String, imageURL: String) -> URL {
        outputDirectory.appendingPathComponent(
            ThumbnailFileName.manifestPath(objectNumber, version: version(of: imageURL)))
    }

    /// The outcome of an earlier run for the same image and settings: its files, when they
    /// are all still there, or its lasting failure.
    ///
    /// Reusing files marks them as just used (their modification time becomes now), which is
    /// what tells a `prune` running meanwhile to keep them; a file that is gone by then, or
    /// taken by that prune, makes the thumbnails again.
    func existing(objectNumber: String, imageURL: String) -> PageThumbnails.Item? {
        let versioned = manifestURL(objectNumber, imageURL: imageURL)
        let unversioned = outputDirectory.appendingPathComponent(
            ThumbnailFileName.unversionedManifestPath(objectNumber))
        for url in [versioned, unversioned] {
            guard let data = try? Data(contentsOf: url),
                let manifest = try? JSONDecoder().decode(Manifest.self, from: data),
                manifest.imageURL == imageURL, manifest.settings == settingsKey
            else { continue }
            if let failure = manifest.failure {
                _ = markUsed(url)
                return PageThumbnails.Item(objectNumber: objectNumber, status: .failed, reason: failure)
            }
            let used = manifest.files.allSatisfy { markUsed(outputDirectory.appendingPathComponent($0.path)) }
            guard used, markUsed(url) else { return nil }
            return PageThumbnails.Item(objectNumber: objectNumber, status: .ok, files: manifest.files)
        }
        return nil
    }

    /// Sets the file's modification time to now; false when it is not there.
    private func markUsed(_ url: URL) -> Bool {
        utimensat(AT_FDCWD, url.path, nil, 0) == 0
    }

    /// Removes what writes killed mid-way left in the thumbnail and manifest folders. Returns the count.
    @discardableResult
    package func removeStaleTemporaries() -> Int {
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

    /// Writes the thumbnails, then the manifest. Paths in the result are relative to the output directory.
    func write(objectNumber: String, imageURL: String, thumbnails: [Thumbnailer.Thumbnail]) throws
        -> [PageThumbnails.File]
    {
        var files: [PageThumbnails.File] = []
        let version = version(of: imageURL)
        for thumbnail in thumbnails.sorted(by: { $0.size < $1.size }) {
            let relative = ThumbnailFileName.thumbnailPath(
                objectNumber, version: version, size: thumbnail.size, fileExtension: fileExtension)
            let url = outputDirectory.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(Data(thumbnail.data), to: url)
            files.append(
                PageThumbnails.File(
                    size: thumbnail.size, path: relative, width: thumbnail.width, height: thumbnail.height,
                    bytes: thumbnail.data.count, sha256: SHA256.hexDigest(of: thumbnail.data)))
        }
        try writeManifest(
            Manifest(imageURL: imageURL, settings: settingsKey, files: files, failure: nil), for: objectNumber)
        return files
    }

    private func writeManifest(_ manifest: Manifest, for objectNumber: String) throws {
        let url = manifestURL(objectNumber, imageURL: manifest.imageURL)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(manifest), to: url)
    }
}
