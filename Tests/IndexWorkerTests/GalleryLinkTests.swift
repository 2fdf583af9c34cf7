import Foundation
import PipelineContract
import Testing

@testable import IndexWorker

@Suite("Gallery links")
struct GalleryLinkTests {
    /// Object numbers as museums write them, each with its thumbnail named as the thumb worker
    /// names it (`%XX` for every byte but letters, digits, `-` and `_`).
    static let objects: [(objectNumber: String, fileName: String)] = [
        ("RP-P-OB-23.990", "RP-P-OB-23%2E990"), ("NG 2", "NG%202"), ("BK-16676/A", "BK-16676%2FA"),
        ("SK-A-#3", "SK-A-%233"), ("SK-C-5?b", "SK-C-5%3Fb"), ("AK-MAK-100%", "AK-MAK-100%25"),
        ("RP-T-1+1", "RP-T-1%2B1"), ("Bertille-é", "Bertille-%C3%A9"), ("SK-A-4096", "SK-A-4096"),
    ]

    @Test("an artist's link is its bucket page and anchor, which percent-encoding leaves as they are")
    func artistLinks() {
        for (number, name) in ["Rembrandt van Rijn", "Ëva Bes", "", "a/b#c?d", "東洲斎写楽"].enumerated() {
            let slice = IndexLayout.Slice(artist: 0, number: number, works: 0..<1, bucket: number * 1_000 + 15)
            let anchor = IndexLayout.anchor(of: name, slice: number)
            #expect(anchor.count == 19 && anchor.hasPrefix("a") && anchor.hasSuffix("-\(number)"))
            #expect(UInt64(anchor.dropFirst().prefix(16), radix: 16) == IndexLayout.nameHash(name))
            #expect(
                GallerySite.link(slice: slice, of: name)
                    == GallerySite.link(IndexLayout.bucketName(slice.bucket) + ".html", fragment: anchor))
        }
    }

    /// The objects on one page, each with its two thumbnails; the first titled `firstTitle` when given.
    static func inputs(firstTitle: String? = nil) -> IndexInputs {
        let request = PageRequest(crawlId: "c", source: "rijksmuseum", query: ["s": "artist"], page: 1, pageSize: 100)
        let artworks = objects.enumerated().map { position, object in
            var artwork = Artwork(
                objectNumber: object.objectNumber, title: "Work \(position)",
                artist: position % 2 == 0 ? "Rembrandt van Rijn" : "Ëva Bes", imageURL: "https://x/\(position).jpg",
                width: nil, height: nil, position: position)
            if position == 0, let firstTitle { artwork.title = firstTitle }
            (artwork.date, artwork.rights) = ("c. 16\(position)0", "http://rightsstatements.org/vocab/InC/1.0/")
            (artwork.landingPage, artwork.iiifManifest) =
                position == 3
                ? ("javascript:alert(1)", nil)
                : ("https://www.museum.example/\(position)", "https://iiif.example/\(position)")
            return artwork
        }
        let page = Page(request: request, total: artworks.count, artworks: artworks)
        let items = objects.map { object in
            PageThumbnails.Item(
                objectNumber: object.objectNumber, status: .ok,
                files: [200, 400].map {
                    .init(
                        size: $0, path: "thumbs/\($0)/0a/\(object.fileName).0123456789abcdef.jpg", width: $0,
                        height: $0 * 3 / 4, bytes: 1_000, sha256: String(repeating: "0", count: 64))
                })
        }
        var inputs = IndexInputs()
        inputs.add(page)
        inputs.add(PageThumbnails(pageId: page.pageId, items: items))
        return inputs
    }

    /// Every `href` and `src` of every page, resolved against the page as a browser resolves it
    /// and percent-decoded as a file server does, names a file that is there, and a fragment
    /// names an element of that file.
    @Test("every link and image of the gallery names a file that exists, whatever the object numbers hold")
    func linksNameFiles() throws {
        let index = ArtistIndex.build(from: Self.inputs())
        var files = IndexLayout.files(for: index)
        for object in Self.objects {
            files["thumbs/200/0a/\(object.fileName).0123456789abcdef.jpg"] = []
            files["thumbs/400/0a/\(object.fileName).0123456789abcdef.jpg"] = []
        }
        let attribute = /(?:href|src)="([^"]*)"/
        var (checked, external) = (0, 0)
        for (page, bytes) in files where page.hasSuffix(".html") {
            let html = String(decoding: bytes, as: UTF8.self)
            let sources = html.matches(of: /srcset="([^"]*)"/).flatMap {
                $0.1.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
            }
            #expect(!html.contains("javascript:"), "\(page): a record's javascript: URL is written")
            for url in html.matches(of: attribute).map({ String($0.1) }) + sources {
                let url = url.replacingOccurrences(of: "&amp;", with: "&")
                guard !url.hasPrefix("https://"), !url.hasPrefix("http://") else {
                    external += 1
                    continue
                }
                let (target, fragment) = try Self.resolve(url, from: page)
                let found = try #require(files[target], "\(page): \(url) names \(target), which is not published")
                if let fragment {
                    #expect(
                        String(decoding: found, as: UTF8.self).contains("id=\"\(fragment)\""),
                        "\(page): \(url) names no element of \(target)")
                }
                checked += 1
            }
        }
        let images = files.filter { $0.key.hasSuffix(".html") }.map {
            String(decoding: $0.value, as: UTF8.self).matches(of: /<img [^>]*src=/).count
        }.reduce(0, +)
        #expect(images == Self.objects.count, "\(images) images in the gallery")
        #expect(checked > images, "only \(checked) links and images were found")
        #expect(external == 0, "a record's links are in the JSON-LD, not the markup")
    }

    /// The file a relative URL names from `page`, as `file://`, a static server and an S3
    /// website find it: the path resolved, then percent-decoded.
    static func resolve(_ url: String, from page: String) throws -> (path: String, fragment: String?) {
        let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        if parts[0].isEmpty, parts.count > 1 {
            return (page, try #require(String(parts[1]).removingPercentEncoding))
        }
        #expect(!parts[0].contains("?"), "\(url): a query where a file was meant")
        var segments = page.split(separator: "/").dropLast().map(String.init)
        for segment in parts[0].split(separator: "/", omittingEmptySubsequences: false) {
            switch segment {
            case "..": _ = segments.popLast()
            case ".": continue
            default:
                segments.append(try #require(String(segment).removingPercentEncoding, "\(url) is not percent-encoded"))
            }
        }
        let fragment = parts.count > 1 ? try #require(String(parts[1]).removingPercentEncoding) : nil
        return (segments.joined(separator: "/"), fragment)
    }
}
