import ArtpipeTestKit
import Foundation
import PipelineContract
import Testing

@testable import IndexWorker

@Suite("The published layout (artpipe-index/2)")
struct IndexLayoutTests {
    /// `works` works: artist 0 holds a third of them, the rest spread over `artists - 1` names.
    static func inputs(works: Int, artists: Int, title: (Int) -> String = { "Title \"\($0)\"\n\u{1}" }) -> IndexInputs {
        let artworks = (0..<works).map { number in
            var artwork = Artwork(
                objectNumber: "OBJ-\(number)", title: title(number),
                artist: number % 3 == 0 ? "anonymous" : "Maker \(number % (artists - 1))",
                imageURL: "https://x/\(number)", width: nil, height: nil, position: number % 100)
            if number % 7 == 0 {
                (artwork.date, artwork.years) = ("c. \(1600 + number % 300)", YearRange(earliest: 1600, latest: 1899))
                (artwork.landingPage, artwork.rights) = ("https://x/page/\(number)", "© the \"maker\"\n")
                (artwork.iiifManifest, artwork.iiifImageService) = ("https://x/m/\(number)", "https://x/i/\(number)")
            }
            return artwork
        }
        var inputs = IndexInputs()
        for first in stride(from: 0, to: works, by: 100) {
            inputs.add(ArtistIndexTests.page(first / 100 + 1, Array(artworks[first..<min(first + 100, works)])))
        }
        return inputs
    }

    @Test("written and read back: the same index; every work once; a large artist in slices across buckets")
    func roundTrip() throws {
        let index = ArtistIndex.build(from: Self.inputs(works: 3_000, artists: 40))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("layout"))
        for (path, bytes) in IndexLayout.files(for: index) {
            let url = output.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let (manifest, readBack) = try PublishedIndex.read(from: output)
        #expect(readBack.artists == index.artists && readBack.totals == index.totals && readBack.crawls == index.crawls)
        let anonymous = try #require(manifest.artists.first { $0.name == "anonymous" })
        #expect(anonymous.works == 1_000 && anonymous.buckets.count == 2)
        let lines = try IndexLayout.publishedPaths(in: output).filter { $0.hasSuffix(".jsonl") }.flatMap {
            try WorkLines.parse(Data(contentsOf: output.appendingPathComponent($0)), file: $0)
        }
        #expect(lines.count == 3_000 && Set(lines.map(\.work.objectNumber)).count == 3_000)
        #expect(lines.contains { $0.work.title == "Title \"7\"\n\u{1}" }, "escaped and decoded back")
        let described = try #require(lines.first { $0.work.objectNumber == "OBJ-14" }?.work)
        #expect(
            described.date == "c. 1614" && described.years == YearRange(earliest: 1600, latest: 1899)
                && described.landingPage == "https://x/page/14" && described.rights == "© the \"maker\"\n"
                && described.iiifManifest == "https://x/m/14" && described.iiifImageService == "https://x/i/14")
        #expect(lines.first { $0.work.objectNumber == "OBJ-15" }?.work.date == nil)
    }

    @Test(
        "the publisher's files are the index's own: a user's file or a folder beside them is never listed, so never removed"
    )
    func onlyOwnFiles() throws {
        let index = ArtistIndex.build(from: Self.inputs(works: 3_000, artists: 40))
        let files = IndexLayout.files(for: index)
        #expect(files.keys.allSatisfy(IndexLayout.isIndexFile), "\(files.keys.filter { !IndexLayout.isIndexFile($0) })")
        let own = [
            "index.json", "works/0af.jsonl", "gallery/0af.html", "gallery/letter-a-2.html", "gallery/letter-other.html",
        ]
        let others = [
            "works/0AF.jsonl", "works/x/0af.jsonl", "/works/0af.jsonl", "works/0af.jsonl/", "gallery/letter-.html",
            "gallery/0afe.html", "works/0af.html", "notes/0af.jsonl", "works", "",
        ]
        #expect(own.allSatisfy(IndexLayout.isIndexFile) && !others.contains(where: IndexLayout.isIndexFile))
        // A bucket's files name it; no other path, of the index or not, does.
        #expect(
            IndexLayout.bucket(ofFile: "works/0af.jsonl") == 0x0af
                && IndexLayout.bucket(ofFile: "gallery/fff.html") == 0xfff)
        let notBuckets =
            others + [
                "index.json", "gallery/letter-a-2.html", "gallery/abc.jsonl", "works/ab.jsonl", "works/abg.jsonl",
                "works/é1.jsonl", "gallery/0af.htm", "gallery/0af.html.tmp",
            ]
        #expect(notBuckets.allSatisfy { IndexLayout.bucket(ofFile: $0) == nil })
        let buckets = IndexLayout.Plan(IndexContent(index)).buckets.keys
        let bucketFiles = buckets.flatMap { [(IndexLayout.worksPath($0), $0), (GallerySite.bucketPath($0), $0)] }
        #expect(
            Dictionary(uniqueKeysWithValues: bucketFiles)
                == files.keys.reduce(into: [:]) { $0[$1] = IndexLayout.bucket(ofFile: $1) })
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("layout-own"))
        for (path, bytes) in files {
            let url = output.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        try Data("body { color: red }".utf8).write(to: output.appendingPathComponent("gallery/custom.css"))
        try Data("notes".utf8).write(to: output.appendingPathComponent("works/README.txt"))
        try FileManager.default.createDirectory(
            at: output.appendingPathComponent("gallery/fff.html"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: output.appendingPathComponent("works/archive"), withIntermediateDirectories: true)
        #expect(try IndexLayout.publishedPaths(in: output) == Set(files.keys))
    }

    @Test("a changed title rewrites its bucket's two files; a new work adds only the files that count it")
    func changesStayLocal() throws {
        var inputs = Self.inputs(works: 3_000, artists: 200)
        let before = IndexLayout.files(for: ArtistIndex.build(from: inputs))
        let retitled = Self.inputs(works: 3_000, artists: 200) { $0 == 1_234 ? "Renamed" : "Title \"\($0)\"\n\u{1}" }
        let changed = PublishedFiles(IndexLayout.files(for: ArtistIndex.build(from: retitled)))
            .differences(from: PublishedFiles(before))
        #expect(
            changed.count == 2 && changed.allSatisfy { $0.hasPrefix("works/") || $0.hasPrefix("gallery/") },
            "\(changed)")

        inputs.add(
            ArtistIndexTests.page(
                99,
                [
                    Artwork(
                        objectNumber: "OBJ-NEW", title: "New", artist: "Maker 17", imageURL: nil, width: nil,
                        height: nil, position: 0)
                ]))
        let added = PublishedFiles(IndexLayout.files(for: ArtistIndex.build(from: inputs)))
            .differences(from: PublishedFiles(before))
        // Its bucket's two files, the manifest, its letter's page, the artist list and the front page.
        #expect(added.count == 6, "\(added)")
    }

    @Test("a bucket is FNV-1a of the artist's name, a zero byte and the slice's digits, modulo 4,096")
    func bucketHash() {
        // The rule of docs/index-format.md, spelled out over the bytes it names.
        func reference(_ name: String, _ slice: Int) -> Int {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in Array(name.utf8) + [0] + Array(String(slice).utf8) {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return Int(hash % 4096)
        }
        let names = ["Rembrandt van Rijn", "Jan Steen", "Émile Bernard", "", "葛飾北斎", "anonymous"]
        for name in names {
            for slice in [0, 1, 9, 10, 12, 99, 100, 12_345] {
                #expect(IndexLayout.bucket(of: name, slice: slice) == reference(name, slice), "\(name) \(slice)")
            }
        }
        // Buckets already published stay where they are: figures worked out apart from the code.
        #expect(IndexLayout.bucket(of: "Rembrandt van Rijn", slice: 0) == 758)
        #expect(IndexLayout.bucket(of: "Rembrandt van Rijn", slice: 12) == 865)
        #expect(IndexLayout.bucket(of: "Jan Steen", slice: 3) == 310)
        #expect(IndexLayout.bucket(of: "Émile Bernard", slice: 0) == 1094)
    }

    @Test("a plan of the artists of some buckets renders those buckets as the plan of every artist does")
    func planOfSomeArtists() throws {
        // Artist 0 holds a third of the works: slices in many buckets, linked to one another.
        let content = IndexContent(ArtistIndex.build(from: Self.inputs(works: 6_000, artists: 300)))
        let whole = IndexLayout.Plan(content)
        let largest = try #require(
            content.artists.indices.max { content.artists[$0].workCount < content.artists[$1].workCount })
        #expect(whole.slices[largest].count > 1)
        // The largest artist's buckets, whose pages link its slices, and some others.
        let rendered = Set(whole.slices[largest].map(\.bucket)).union(whole.buckets.keys.sorted().prefix(30))
        let artists = Set(rendered.flatMap { whole.buckets[$0]!.map { content.artists[$0.artist].name } })
        let some = IndexLayout.Plan(content, only: artists)
        #expect(artists.count < content.artists.count / 2)
        for bucket in rendered {
            let (expected, made) = (
                IndexLayout.bucketFiles(bucket, of: content, plan: whole, site: nil),
                IndexLayout.bucketFiles(bucket, of: content, plan: some, site: nil)
            )
            #expect(made.map(\.path) == expected.map(\.path) && made.map(\.bytes) == expected.map(\.bytes))
        }
        #expect(Set(some.buckets.keys).isSuperset(of: rendered) && some.buckets.count < whole.buckets.count)
    }

    @Test("no bucket grows with the largest artist: 30,000 works, one artist holding a third")
    func bucketsStayBounded() throws {
        let files = IndexLayout.files(for: ArtistIndex.build(from: Self.inputs(works: 30_000, artists: 1_000)))
        let worksFiles = files.filter { $0.key.hasPrefix("works/") }
        #expect(worksFiles.count <= IndexLayout.bucketCount)
        let largest = try #require(worksFiles.values.map { $0.count { $0 == UInt8(ascii: "\n") } }.max())
        // About 30 works per bucket on average; the 20 slices of 500 land where their hashes take them.
        #expect(largest <= 3 * IndexLayout.sliceSize, "\(largest) works in one bucket")
        #expect(files.values.allSatisfy { $0.count < 2_000_000 })
    }
}
