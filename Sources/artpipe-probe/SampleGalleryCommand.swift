import ArgumentParser
import Crypto
import Foundation
import IndexWorker
import PipelineContract
import SampleImages
import ThumbWorker

/// `artpipe-probe sample-gallery`: an index with real thumbnail files, for checking the
/// gallery page in a browser.
struct SampleGalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-gallery",
        abstract: "Write DIR/index.json, DIR/index.html and DIR/thumbs for WORKS sample works.")

    @Option var out: String
    @Option var works: Int = 60
    @Option(help: "Distinct thumbnail files, reused round-robin (default: one per work).")
    var distinctImages: Int?

    func run() async throws {
        let output = URL(fileURLWithPath: out, isDirectory: true)
        let makers = ["Rembrandt van Rijn", "Johannes Vermeer", "Ëva Bes", "anonymous", "", "Jan Steen", "Frans Hals"]
        let request = PageRequest(
            crawlId: "sample", source: "rijksmuseum", query: ["s": "artist"], page: 1, pageSize: works)
        var artworks: [Artwork] = []
        var items: [PageThumbnails.Item] = []
        for index in 0..<works {
            let objectNumber = "SK-S-\(index)"
            artworks.append(
                Artwork(
                    objectNumber: objectNumber, title: "Sample <\(index)>", artist: makers[index % makers.count],
                    imageURL: index % 10 == 9 ? nil : "https://example.org/\(index).jpg", width: nil, height: nil,
                    position: index))
            guard index % 10 != 9 else {
                items.append(.init(objectNumber: objectNumber, status: .noImage))
                continue
            }
            let (width, height) = index % 3 == 0 ? (200, 140) : (150, 200)
            let image = try SampleImage.noisy(width: width, height: height, seed: index, quality: 80)
            let path = "thumbs/200/\(ThumbnailFileName.make(objectNumber)).jpg"
            let url = output.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(image).write(to: url)
            items.append(
                .init(
                    objectNumber: objectNumber, status: .ok,
                    files: [
                        .init(
                            size: 200, path: path, width: width, height: height, bytes: image.count,
                            sha256: SHA256.hexDigest(of: image))
                    ]))
        }
        var inputs = IndexInputs()
        let page = Page(request: request, total: works, artworks: artworks)
        inputs.add(page)
        inputs.add(PageThumbnails(pageId: page.pageId, items: items))
        let index = ArtistIndex.build(from: inputs)
        try Data(try index.jsonBytes()).write(to: output.appendingPathComponent("index.json"))
        try Data(GalleryPage.render(index).utf8).write(to: output.appendingPathComponent("index.html"))
        print("wrote \(works) works by \(index.totals.artists) artists to \(output.path)")
    }
}
