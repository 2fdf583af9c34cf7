import ArgumentParser
import Crypto
import Foundation
import IndexWorker
import PipelineContract
import SampleCollection
import SampleImages
import ThumbWorker

/// `artpipe-probe sample-gallery`: a published index with real thumbnail files, for checking
/// the gallery in a browser at any size.
struct SampleGalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-gallery",
        abstract: "Publish an index of WORKS sample works by ARTISTS artists, with thumbnails, to DIR.")

    @Option var out: String
    @Option var works: Int = 60
    @Option(
        help:
            "Artists: a few fixed ones (anonymous, the unknown maker) and generated names; skewed so that a few hold many works."
    )
    var artists: Int = 7
    @Option(help: "Distinct thumbnail files, reused round-robin (default: one per work).")
    var distinctImages: Int?

    @Flag(help: "A WebP beside each JPEG, as `thumb-worker --formats jpeg,webp` writes them.")
    var webp = false

    @Option(
        help: "Where the gallery is served, as `index-worker --site-url` takes it: a sitemap and Open Graph properties."
    )
    var siteURL: String?

    func validate() throws {
        guard works >= 1, artists >= 1 else { throw ValidationError("--works and --artists must be at least 1") }
        if let siteURL, SiteAddress(siteURL) == nil {
            throw ValidationError("--site-url must be an absolute http or https URL without a query or fragment")
        }
        guard (distinctImages ?? 1) >= 1 else { throw ValidationError("--distinct-images must be at least 1") }
    }

    /// The mean colour of `SampleImage.noisy`'s image of `seed`: noise of mean 128 in each band,
    /// scaled by (1, 0.8, 0.6) and offset by the seed, as ThumbWorker would find it.
    static func colour(seed: Int) -> String {
        let channels = [128 + seed % 64, 102 + seed * 7 % 64, 77 + seed * 13 % 64]
        return "#" + channels.map { String(format: "%02x", min($0, 255)) }.joined()
    }

    func run() async throws {
        let output = URL(fileURLWithPath: out, isDirectory: true)
        let makers = Self.makers(artists)
        let distinct = min(distinctImages ?? works, works)
        // Both sizes the thumb worker makes: a tile shows 200, a work's detail 400.
        var images: [[PageThumbnails.File]] = []
        for number in 0..<distinct {
            var files: [PageThumbnails.File] = []
            for size in [200, 400] {
                for format in webp ? [".jpg", ".webp"] : [".jpg"] {
                    let (width, height) = number % 3 == 0 ? (size, size * 7 / 10) : (size * 3 / 4, size)
                    let image = try SampleImage.noisy(
                        width: width, height: height, seed: number, format: format, quality: 80)
                    let path = ThumbnailFileName.thumbnailPath(
                        Self.objectNumber(number), version: "0000000000000000", size: size,
                        fileExtension: String(format.dropFirst()))
                    let url = output.appendingPathComponent(path)
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(image).write(to: url)
                    files.append(
                        PageThumbnails.File(
                            size: size, path: path, width: width, height: height, bytes: image.count,
                            sha256: SHA256.hexDigest(of: image)))
                }
            }
            images.append(files)
        }
        var inputs = IndexInputs()
        let pageSize = 1_000
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        for first in stride(from: 0, to: works, by: pageSize) {
            let request = PageRequest(
                crawlId: "sample", source: "rijksmuseum", query: ["s": "artist"], page: first / pageSize + 1,
                pageSize: pageSize)
            var artworks: [Artwork] = []
            var items: [PageThumbnails.Item] = []
            for number in first..<min(first + pageSize, works) {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                // Cubed, so the first artists hold most works, as anonymous does in a museum.
                let share = Double(random >> 11) / Double(1 << 53)
                let maker = makers[min(Int(Double(makers.count) * share * share * share), makers.count - 1)]
                let objectNumber = Self.objectNumber(number)
                let hasImage = number % 10 != 9
                artworks.append(
                    Self.described(
                        Artwork(
                            objectNumber: objectNumber, title: "Sample <\(number)>", artist: maker,
                            imageURL: hasImage ? "https://example.org/\(number).jpg" : nil, width: nil, height: nil,
                            position: number - first), number: number))
                if !hasImage {
                    items.append(.init(objectNumber: objectNumber, status: .noImage))
                } else if number % 50 == 17 {
                    items.append(
                        .init(objectNumber: objectNumber, status: .failed, reason: "HTTP 404 from the image host"))
                } else {
                    var item = PageThumbnails.Item(
                        objectNumber: objectNumber, status: .ok, files: images[number % distinct])
                    item.colour = Self.colour(seed: number % distinct)
                    items.append(item)
                }
            }
            let page = Page(request: request, total: works, artworks: artworks)
            inputs.add(page)
            inputs.add(PageThumbnails(pageId: page.pageId, items: items))
        }
        let index = ArtistIndex.build(from: inputs)
        for (path, bytes) in IndexLayout.files(for: index, site: siteURL.flatMap(SiteAddress.init)) {
            let url = output.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        print("wrote \(works) works by \(index.totals.artists) artists to \(output.path)")
    }

    /// What a museum's record says of work `number`: most have a date, rights and a landing page;
    /// some a IIIF manifest; a few none of them.
    static func described(_ artwork: Artwork, number: Int) -> Artwork {
        guard number % 13 != 5 else { return artwork }
        var artwork = artwork
        let year = 1580 + number % 120
        (artwork.date, artwork.years) =
            number % 4 == 0
            ? ("c. \(year)–\(year + 5)", YearRange(earliest: year, latest: year + 5))
            : ("\(year)", YearRange(earliest: year, latest: year))
        artwork.rights =
            [
                "http://creativecommons.org/publicdomain/zero/1.0/",
                "http://creativecommons.org/publicdomain/mark/1.0/",
                "http://rightsstatements.org/vocab/InC/1.0/", "© the sample collection",
            ][number % 4]
        artwork.landingPage = "https://collection.example.org/objects/\(number)"
        if number % 3 == 0 { artwork.iiifManifest = "https://collection.example.org/iiif/\(number)/manifest" }
        return artwork
    }

    /// Object numbers as museums write them: one in five has a `.`, a space, a `/`, a `#`, a `?`,
    /// a `%`, a `+` or letters beyond ASCII.
    static func objectNumber(_ number: Int) -> String {
        SampleNames.objectNumber("SK-S-\(number)", index: number)
    }

    /// The fixed makers first (the unknown maker among them), then generated names.
    static func makers(_ count: Int) -> [String] {
        let fixed =
            ["anonymous", "Rembrandt van Rijn", "Johannes Vermeer", "Ëva Bes", "", "Jan Steen", "Frans Hals"]
            + SampleNames.fixedMakers
        var makers = Array(fixed.prefix(count))
        var seen = Set(makers)
        var number = 0
        while makers.count < count {
            let given = SampleNames.givenNames[number % SampleNames.givenNames.count]
            let family = SampleNames.familyNames[
                (number / SampleNames.givenNames.count) % SampleNames.familyNames.count]
            let round = number / (SampleNames.givenNames.count * SampleNames.familyNames.count)
            let name = round == 0 ? "\(given) \(family)" : "\(given) \(family) (\(round + 1))"
            if seen.insert(name).inserted { makers.append(name) }
            number += 1
        }
        return makers
    }
}
