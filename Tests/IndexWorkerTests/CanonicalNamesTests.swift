import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import IndexWorker
import PipelineContract
import Testing

@Suite("Canonically equivalent names", .timeLimit(.minutes(2)))
struct CanonicalNamesTests {
    static let composed = "Paul C\u{E9}zanne"
    static let decomposed = "Paul Ce\u{301}zanne"

    @Test(
        "makers and object numbers spelt in NFC and in NFD publish the same bytes from every process, in NFC"
    )
    func sameBytesFromEveryProcess() async throws {
        let request = { (page: Int) in
            PageRequest(crawlId: "c", source: "rijksmuseum", query: ["s": "artist"], page: page, pageSize: 2)
        }
        let artwork = { (number: String, title: String, artist: String, position: Int) in
            Artwork(
                objectNumber: number, title: title, artist: artist, imageURL: nil, width: nil, height: nil,
                position: position)
        }
        // Forty pages, the maker spelt one way on odd pages and the other on even ones: which
        // spelling a process meets first follows the order of its dictionaries, and so its hash seed.
        var pages = (1...40).map { number in
            Page(
                request: request(number), total: 80,
                artworks: (0..<2).map {
                    artwork("SK-\(number)-\($0)", "Study \($0)", number % 2 == 1 ? Self.composed : Self.decomposed, $0)
                })
        }
        // One object number, spelt both ways: one work, from the lower page.
        pages[0].artworks.append(artwork("SK-\u{C9}-1", "Mont Sainte-Victoire", Self.composed, 2))
        pages[1].artworks.append(artwork("SK-E\u{301}-1", "Mont Sainte-Victoire", Self.decomposed, 2))
        let input = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("nfc-pages.json"))
        try JSONEncoder().encode(pages).write(to: input)

        // Each process hashes with a seed of its own: without one spelling chosen by rule,
        // which one names the artist differs between them.
        var published: [PublishedFiles] = []
        for _ in 0..<6 {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("nfc-out"))
            let probe = try ChildProcess(
                "artpipe-probe", ["publish-pages", "--pages", input.path, "--out", output.path])
            #expect(try await probe.waitForExit(timeout: .seconds(60)) == 0, "\(probe.stderr)")
            published.append(try #require(PublishedFiles(in: output, paths: IndexLayout.publishedPaths(in: output))))
        }
        for other in published.dropFirst() {
            #expect(other.differences(from: published[0]).isEmpty, "\(other.differences(from: published[0]))")
        }
        let manifest = try #require(published[0].files[IndexLayout.manifestPath])
        #expect(Self.contains(manifest, Self.composed) && !Self.contains(manifest, Self.decomposed))
        let works = published[0].files.filter { $0.key.hasPrefix("works/") }.values.flatMap { $0 }
        #expect(Self.contains(works, "SK-\u{C9}-1") && !Self.contains(works, "SK-E\u{301}-1"))
        let artists =
            try #require(String(bytes: manifest, encoding: .utf8)).components(separatedBy: "\"name\":").count - 1
        #expect(artists == 1, "one artist")
    }

    /// Whether `bytes` hold `text`'s UTF-8 as it is spelt, not merely an equivalent of it.
    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
