import ArtpipeRuntime
import ArtpipeSupport
import ArtpipeTestKit
import Crypto
import Foundation
import HTTPTestKit
import KafkaTestKit
import PipelineContract
import SampleImages
import Synchronization
import Testing

@testable import HTTPFetching
@testable import ThumbWorker

@Suite("ThumbWorker over loopback HTTP and the embedded broker", .serialized, .timeLimit(.minutes(3)))
struct ThumbWorkerPipelineTests {
    @Test("a page of good, missing and hostile images gives one PageThumbnails; a replay downloads nothing")
    func pageOfImages() async throws {
        let jpeg = try SampleImage.noisy(width: 3000, height: 2000, seed: 1)
        let png = try SampleImage.noisy(width: 800, height: 1200, seed: 2, format: ".png")
        let bodies: [String: TestHTTPServer.Response] = [
            "/ok.jpg": .init(headers: [("Content-Type", "image/jpeg")], body: jpeg),
            "/ok.png": .init(headers: [("Content-Type", "image/png")], body: png),
            "/empty.jpg": .init(headers: [("Content-Type", "image/jpeg")], body: []),
            "/html.jpg": .init(headers: [("Content-Type", "image/jpeg")], body: Array("<html>oops</html>".utf8)),
            "/truncated.jpg": .init(body: Array(jpeg.prefix(jpeg.count / 2))),
            "/bomb.png": .init(body: ThumbnailerTests.pngHeader(width: 100_000, height: 100_000)),
            "/drawing.svg": .init(
                body: Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\"/>".utf8)),
            "/claims-huge.jpg": .init(body: ThumbnailerTests.patchJPEGSize(jpeg, width: 65_500, height: 65_500)),
            "/over-cap.jpg": .init(body: [UInt8](repeating: 0xFF, count: 12 << 20)),
            "/never.jpg": .init(body: jpeg, delay: .seconds(30)),
            "/loop.jpg": .init(status: 302, headers: [("Location", "/loop.jpg")]),
            "/elsewhere.jpg": .init(status: 302, headers: [("Location", "http://example.org/x.jpg")]),
            "/gone.jpg": .init(status: 404),
        ]
        let server = try await TestHTTPServer.start { bodies[$0.path] ?? .init(status: 404) }
        defer { Task { await server.stop() } }
        let url = { (path: String) in "\(server.baseURL)\(path)" }

        let longNumber = String(repeating: "X", count: 300)
        let works: [(String, String?, PageThumbnails.Item.Status, String?)] = [
            ("SK-A-1", url("/ok.jpg"), .ok, nil),
            ("../../etc/passwd", url("/ok.png"), .ok, nil),
            ("a/b", url("/ok.jpg"), .ok, nil),
            ("", url("/ok.png"), .ok, nil),
            (longNumber, url("/ok.jpg"), .ok, nil),
            ("NO-IMAGE", nil, .noImage, nil),
            ("EMPTY", url("/empty.jpg"), .failed, "empty body"),
            ("HTML", url("/html.jpg"), .failed, "not an image"),
            ("TRUNCATED", url("/truncated.jpg"), .failed, "undecodable"),
            ("BOMB", url("/bomb.png"), .failed, "too large: 100000x100000"),
            ("SVG", url("/drawing.svg"), .failed, nil),
            ("HUGE", url("/claims-huge.jpg"), .failed, "too large: 65500x65500"),
            ("OVER-CAP", url("/over-cap.jpg"), .failed, "too large: over 8 MiB"),
            ("NEVER", url("/never.jpg"), .failed, "timeout"),
            ("LOOP", url("/loop.jpg"), .failed, "more than 3 redirects"),
            ("ELSEWHERE", url("/elsewhere.jpg"), .failed, "not an allowed host"),
            ("GONE", url("/gone.jpg"), .failed, "HTTP 404"),
        ]
        let artworks = works.enumerated().map { index, work in
            Artwork(
                objectNumber: work.0, title: "t", artist: "a", imageURL: work.1, width: nil, height: nil,
                position: index)
        }
        let request = PageRequest(crawlId: "c", source: "rijksmuseum", query: ["q": "x"], page: 1, pageSize: 20)
        let page = Page(request: request, total: works.count, artworks: artworks)

        let cluster = try TestCluster()
        for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 2) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("thumbs-out"))
        var configuration = Thumbnailer.Configuration()
        configuration.sizes = [200, 400]
        configuration.concurrency = 2
        var download = HTTPFetcherConfiguration()
        download.maxResponseBytes = 8 << 20
        // Long enough for the 3000x2000 JPEG on a loaded CI machine (700 ms once timed out
        // twice in a full suite), far below never.jpg's 30 s delay.
        download.requestTimeout = .seconds(3)
        download.maxAttempts = 2
        download.initialBackoff = .milliseconds(10)
        download.maxBackoff = .milliseconds(20)
        let downloader = HTTPFetcher(configuration: download, redaction: SecretRedaction(secrets: []), logger: .test)
        let handler = PageThumbnailHandler(
            thumbnailer: try Thumbnailer(configuration: configuration, threadPool: .singleton),
            store: ThumbnailStore(outputDirectory: output, configuration: configuration), downloader: downloader,
            policy: HostPolicy(allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true), imageConcurrency: 4,
            threadPool: .singleton)
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("thumb"), topics: [ArtpipeTopic.pages], handler: handler)

        try await cluster.producer.send(MessageCodec.record(page, topic: ArtpipeTopic.pages))
        let first = try await readTopic(
            ArtpipeTopic.thumbnails, brokers: cluster.brokers, count: 1, timeout: .seconds(90))
        let thumbnails = try MessageCodec.decode(PageThumbnails.self, from: try #require(first.first))
        #expect(thumbnails.pageId == page.pageId)
        #expect(thumbnails.items.map(\.objectNumber) == works.map(\.0))
        for (item, work) in zip(thumbnails.items, works) {
            #expect(item.status == work.2, "\(work.0.prefix(20)): \(item.reason ?? "-")")
            if let expected = work.3 {
                #expect(item.reason?.contains(expected) == true, "\(work.0): \(item.reason ?? "-")")
            }
            if item.status == .failed { #expect(item.files.isEmpty && !(item.reason ?? "").isEmpty) }
            // A colour with every image made (the replay below reads it back from the manifest).
            #expect((item.colour?.count == 7) == (item.status == .ok), "\(work.0.prefix(20))")
        }

        // The files: right sizes, inside DIR/thumbs, one per object number and size.
        let thumbsRoot = output.appendingPathComponent("thumbs").standardizedFileURL.path + "/"
        for item in thumbnails.items where item.status == .ok {
            #expect(item.files.map(\.size) == [200, 400])
            for file in item.files {
                let path = output.appendingPathComponent(file.path).standardizedFileURL.path
                #expect(path.hasPrefix(thumbsRoot), "\(file.path)")
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                let header = try Thumbnailer.header(of: bytes)
                #expect(header.width == file.width && header.height == file.height)
                #expect(max(file.width, file.height) == file.size)
                #expect(bytes.count == file.bytes && SHA256.hexDigest(of: bytes) == file.sha256)
            }
        }
        let paths = thumbnails.items.flatMap(\.files).map(\.path)
        #expect(Set(paths).count == paths.count, "no two works share a file")
        let everything = FileManager.default.enumerator(atPath: output.path)?.allObjects as? [String] ?? []
        #expect(everything.allSatisfy { $0 == "thumbs" || $0.hasPrefix("thumbs/") }, "\(everything)")

        // Manifests as an earlier build wrote them, without colours: the replay reads each
        // colour from the largest file and writes it back, and downloads nothing for it.
        let manifests = output.appendingPathComponent("thumbs/.manifests")
        var uncoloured = 0
        for case let path as String in FileManager.default.enumerator(atPath: manifests.path) ?? .init()
        where path.hasSuffix(".json") {
            let url = manifests.appendingPathComponent(path)
            var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            if manifest.removeValue(forKey: "colour") != nil { uncoloured += 1 }
            try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: url)
        }
        #expect(uncoloured == thumbnails.items.filter { $0.status == .ok }.count)

        // A replay: the same page again. Only the transient failure is fetched again.
        let seen = server.requests.filter { $0.path != "/never.jpg" }.count
        try await cluster.producer.send(MessageCodec.record(page, topic: ArtpipeTopic.pages))
        let both = try await readTopic(
            ArtpipeTopic.thumbnails, brokers: cluster.brokers, count: 2, timeout: .seconds(90))
        try await worker.stop()
        try await downloader.shutdown()
        let replayed = try MessageCodec.decode(PageThumbnails.self, from: try #require(both.last))
        #expect(replayed == thumbnails)
        #expect(server.requests.filter { $0.path != "/never.jpg" }.count == seen, "the replay downloaded again")
        for case let path as String in FileManager.default.enumerator(atPath: manifests.path) ?? .init()
        where path.hasSuffix(".json") {
            let manifest = try Data(contentsOf: manifests.appendingPathComponent(path))
            #expect(
                String(decoding: manifest, as: UTF8.self).contains("\"colour\"")
                    == String(decoding: manifest, as: UTF8.self).contains("\"files\":[{"), "\(path)")
        }
        await cluster.shutdown()
    }

    @Test(
        "an image host that throttles for an hour sends the page to the retry topics, and the image is made when it is due; one that never stops fails the image once the page has been retried for long enough"
    )
    func throttledHostRetriesThePage() async throws {
        let jpeg = try SampleImage.noisy(width: 800, height: 600, seed: 7)
        let throttledRequests = Mutex(0)
        var download = HTTPFetcherConfiguration()
        // An hour becomes 1.8 s: the test cannot wait an hour.
        download.retryAfterScale = 0.0005
        download.maxWaitInPlace = .milliseconds(100)
        let images = try await LoopbackImages.start(
            sizes: [100], label: "throttled", download: download, imageConcurrency: 2
        ) { request in
            switch request.path {
            case "/ok.jpg": return .init(headers: [("Content-Type", "image/jpeg")], body: jpeg)
            case "/throttled.jpg":
                // Throttled at first, as the museum's image host may be for an hour.
                let count = throttledRequests.withLock {
                    $0 += 1
                    return $0
                }
                return count == 1
                    ? .init(status: 429, headers: [("Retry-After", "3600")])
                    : .init(headers: [("Content-Type", "image/jpeg")], body: jpeg)
            case "/always-throttled.jpg": return .init(status: 429, headers: [("Retry-After", "3600")])
            default: return .init(status: 404)
            }
        }
        defer { Task { await images.stop() } }
        let cluster = try TestCluster()
        for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 1) }
        let handler = images.handler
        let worker = try InProcessWorker(
            brokers: cluster.brokers, group: UniqueName.make("thumb"), topics: [ArtpipeTopic.pages], handler: handler,
            retrySchedule: RetrySchedule(
                topics: ArtpipeTopic.pageRetries, delays: [.milliseconds(200), .milliseconds(400), .milliseconds(800)],
                giveUpAfter: .seconds(8)))
        func page(_ number: Int, _ works: [(String, String)]) -> Page {
            let request = PageRequest(crawlId: "c", source: "rijksmuseum", query: [:], page: number, pageSize: 2)
            return Page(
                request: request, total: 4,
                artworks: works.enumerated().map { position, work in images.artwork(work.0, work.1, position: position)
                })
        }
        let first = page(1, [("SK-1", "/ok.jpg"), ("SK-2", "/throttled.jpg"), ("SK-GONE", "/gone.jpg")])
        try await cluster.producer.send(MessageCodec.record(first, topic: ArtpipeTopic.pages))
        // In a full suite on 2 cores the first attempt once ended 63 s after the page was sent.
        let made = try await readTopic(
            ArtpipeTopic.thumbnails, brokers: cluster.brokers, count: 1, timeout: .seconds(180))
        let thumbnails = try MessageCodec.decode(PageThumbnails.self, from: try #require(made.first))
        #expect(thumbnails.items.map(\.status) == [.ok, .ok, .failed], "\(thumbnails.items.map(\.reason))")
        #expect(throttledRequests.withLock { $0 } == 2, "asked once, throttled; asked again when due")
        let retried = try await readTopic(
            ArtpipeTopic.pageRetries[2], brokers: cluster.brokers, count: 1, timeout: .seconds(10))
        #expect(RetryState(headers: try #require(retried.first).headers)?.lastReason.contains("SK-2") == true)

        // A host that throttles past --retry-for: the page completes, that image failed, nothing dead-lettered.
        let second = page(2, [("SK-3", "/ok.jpg"), ("SK-4", "/always-throttled.jpg")])
        try await cluster.producer.send(MessageCodec.record(second, topic: ArtpipeTopic.pages))
        let both = try await readTopic(
            ArtpipeTopic.thumbnails, brokers: cluster.brokers, count: 2, timeout: .seconds(180))
        try await worker.stop()
        let given = try MessageCodec.decode(PageThumbnails.self, from: try #require(both.last))
        #expect(given.pageId == second.pageId)
        #expect(given.items.map(\.status) == [.ok, .failed])
        #expect(given.items.last?.reason?.contains("asked to wait") == true, "\(given.items.last?.reason ?? "-")")
        let imageURL = "\(images.server.baseURL)/always-throttled.jpg"
        #expect(
            try images.store.existing(objectNumber: "SK-4", imageURL: imageURL) == nil,
            "not the image's lasting failure")
        await cluster.shutdown()
    }

    @Test(
        "with both formats a work's files are a JPEG and a WebP at each size, one version that a prune keeps whole; one format alone keeps the settings of earlier builds"
    )
    func bothFormats() async throws {
        let images = try await LoopbackImages.start(
            ["/a.jpg": try SampleImage.noisy(width: 900, height: 600, seed: 5)], sizes: [200, 400],
            formats: [.jpeg, .webp], label: "both-formats")
        defer { Task { await images.stop() } }
        let item = try await images.handler.item(for: images.artwork("SK-BOTH", "/a.jpg"))
        #expect(item.status == .ok && item.colour != nil)
        #expect(item.files.map(\.size) == [200, 200, 400, 400])
        #expect(item.files.map { $0.path.split(separator: ".").last ?? "" } == ["jpg", "webp", "jpg", "webp"])
        for file in item.files {
            let bytes = Array(try Data(contentsOf: images.output.appendingPathComponent(file.path)))
            #expect(try Thumbnailer.header(of: bytes).format == (file.path.hasSuffix(".webp") ? "webp" : "jpeg"))
            #expect(bytes.count == file.bytes && SHA256.hexDigest(of: bytes) == file.sha256)
        }
        #expect(Set(item.files.map { ThumbnailFileName.owner(ofPath: $0.path).version }).count == 1)
        // Reused as made, colour and all.
        #expect(try await images.handler.item(for: images.artwork("SK-BOTH", "/a.jpg")) == item)
        #expect(images.store.settingsKey == "sizes=200,400;q=82;jpg+webp")
        var jpeg = Thumbnailer.Configuration()
        jpeg.sizes = [400, 200]
        #expect(
            ThumbnailStore(outputDirectory: images.output, configuration: jpeg).settingsKey == "sizes=200,400;q=82;jpg")
        jpeg.webpQuality = 75
        #expect(
            ThumbnailStore(outputDirectory: images.output, configuration: jpeg).settingsKey == "sizes=200,400;q=82;jpg")
        jpeg.formats = [.jpeg, .webp]
        #expect(
            ThumbnailStore(outputDirectory: images.output, configuration: jpeg).settingsKey
                == "sizes=200,400;q=82;jpg+webp;webpq=75")
        jpeg.formats = [.webp]
        #expect(
            ThumbnailStore(outputDirectory: images.output, configuration: jpeg).settingsKey == "sizes=200,400;q=75;webp"
        )
        jpeg.webpQuality = nil
        #expect(
            ThumbnailStore(outputDirectory: images.output, configuration: jpeg).settingsKey == "sizes=200,400;q=82;webp"
        )
        // A manifest without a colour whose largest file is no longer the one it names: the item
        // is reused as it was, without a colour, and nothing fails.
        let manifests = images.output.appendingPathComponent("thumbs/.manifests")
        let manifest = try #require(
            FileManager.default.enumerator(atPath: manifests.path)?.allObjects.compactMap { $0 as? String }.first {
                $0.hasSuffix(".json")
            })
        let manifestURL = manifests.appendingPathComponent(manifest)
        var fields = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        fields["colour"] = nil
        try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]).write(to: manifestURL)
        try Data(try SampleImage.noisy(width: 400, height: 267, seed: 6)).write(
            to: images.output.appendingPathComponent(item.files[2].path))
        var uncoloured = item
        uncoloured.colour = nil
        #expect(try await images.handler.item(for: images.artwork("SK-BOTH", "/a.jpg")) == uncoloured)
        // The index names the JPEGs; their WebPs, of the same version, stay with them.
        let plan = try ThumbnailPrunePlan(
            output: images.output, referencedPaths: [item.files[0].path], unsettledObjectNumbers: [],
            cutoff: Date().addingTimeInterval(3_600))
        #expect(plan.candidates.isEmpty, "\(plan.candidates.map(\.path))")
    }

    @Test("file names stay in their folder and never collide; 256 folders share the files evenly")
    func fileNames() {
        let numbers = [
            "../../etc/passwd", "a/b", "a%2Fb", "", ".hidden", "~empty", "SK-A-1", "Roëttiers",
            String(repeating: "Y", count: 300),
        ]
        let names = numbers.map(ThumbnailFileName.make)
        #expect(Set(names).count == numbers.count)
        for name in names {
            #expect(!name.contains("/") && !name.hasPrefix(".") && !name.isEmpty && name.utf8.count <= 170)
        }
        #expect(ThumbnailFileName.make("SK-A-1") == "SK-A-1")
        // 256 folders, spread evenly: at two million works none holds much more than 10,000 files.
        var perFolder: [String: Int] = [:]
        for number in 0..<100_000 { perFolder[ThumbnailFileName.folder("SK-A-\(number)"), default: 0] += 1 }
        #expect(perFolder.count == 256 && perFolder.keys.allSatisfy { $0.count == 2 && Int($0, radix: 16) != nil })
        #expect(perFolder.values.max()! < 100_000 / 256 * 5 / 4, "\(perFolder.values.max()!)")
        #expect(
            ThumbnailFileName.make(String(repeating: "Y", count: 300))
                != ThumbnailFileName.make(String(repeating: "Y", count: 301)))
    }

    @Test("the default allow-list takes the image hosts of every source: the museum's, Flickr's, Apple's artwork")
    func sourcesImageHosts() async throws {
        var policy = HostPolicy()
        policy.resolver = { _ in .addresses([HostPolicy.Address(bytes: [93, 184, 216, 34])]) }
        for url in [
            "https://live.staticflickr.com/2082/2448337677_592a1a3238_b.jpg",
            "https://farm5.staticflickr.com/4614/28033364809_f5a3538047_z.jpg",
            "https://is5-ssl.mzstatic.com/image/thumb/Music125/v4/f8/source/512x512bb.jpg",
            "https://iiif.micr.io/AbCdE/full/!512,512/0/default.jpg",
        ] {
            #expect(try await policy.check(URL(string: url)!) == ["93.184.216.34"], "\(url)")
        }
        await #expect(throws: HostPolicy.Refusal.self) {
            try await policy.check(URL(string: "https://staticflickr.com.example.org/a.jpg")!)
        }
    }

    @Test("a name look-up that fails, or a name that does not resolve, is for the moment: never recorded as lasting")
    func transientLookup() async throws {
        var policy = HostPolicy(allowedHosts: ["images.example"])
        policy.resolver = { _ in .unavailable("Temporary failure in name resolution") }
        await #expect(throws: HostPolicy.LookupUnavailable.self) {
            try await policy.check(URL(string: "https://images.example/a.jpg")!)
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("dns-out"))
        var configuration = Thumbnailer.Configuration()
        configuration.sizes = [200]
        var download = HTTPFetcherConfiguration()
        download.maxAttempts = 2
        download.initialBackoff = .milliseconds(5)
        download.maxBackoff = .milliseconds(10)
        let downloader = HTTPFetcher(configuration: download, redaction: SecretRedaction(secrets: []), logger: .test)
        defer { Task { try? await downloader.shutdown() } }
        let store = ThumbnailStore(outputDirectory: output, configuration: configuration)
        func handler(_ policy: HostPolicy) throws -> PageThumbnailHandler {
            PageThumbnailHandler(
                thumbnailer: try Thumbnailer(configuration: configuration, threadPool: .singleton), store: store,
                downloader: downloader, policy: policy, imageConcurrency: 1, threadPool: .singleton)
        }
        let url = "https://images.example/a.jpg"
        let artwork = Artwork(
            objectNumber: "DNS-1", title: "t", artist: "a", imageURL: url, width: nil, height: nil, position: 0)
        let unavailable = try await handler(policy).item(for: artwork)
        #expect(unavailable.status == .failed)
        #expect(unavailable.reason?.contains("failed for now") == true, "\(unavailable.reason ?? "-")")
        #expect(try store.existing(objectNumber: "DNS-1", imageURL: url) == nil, "a replay will try it again")

        policy.resolver = { _ in .notFound }
        let missing = try await handler(policy).item(for: artwork)
        #expect(missing.status == .failed && missing.reason?.contains("does not resolve") == true)
        #expect(
            try store.existing(objectNumber: "DNS-1", imageURL: url) == nil,
            "a name that does not resolve now may later (a DNS outage, a zone moving): never recorded as lasting")
    }

    @Test("the download connects to the address the host check approved, not to what a second look-up answers")
    func connectsToCheckedAddress() async throws {
        let jpeg = try SampleImage.noisy(width: 400, height: 300, seed: 3)
        let server = try await TestHTTPServer.start { _ in .init(headers: [("Content-Type", "image/jpeg")], body: jpeg)
        }
        defer { Task { await server.stop() } }
        let port = try #require(URL(string: server.baseURL)?.port)
        // `.invalid` never resolves (RFC 6761): only the checked address can reach the server.
        var policy = HostPolicy(allowedHosts: ["rebind.invalid"])
        let lookups = Mutex(0)
        policy.resolver = { _ in
            lookups.withLock { $0 += 1 }
            return .addresses([.init(bytes: [127, 0, 0, 1])])
        }
        policy.isRefusedAddress = { _ in false }
        var configuration = Thumbnailer.Configuration()
        configuration.sizes = [100]
        var download = HTTPFetcherConfiguration()
        download.maxAttempts = 1
        let downloader = HTTPFetcher(configuration: download, redaction: SecretRedaction(secrets: []), logger: .test)
        defer { Task { try? await downloader.shutdown() } }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("pinned"))
        let handler = PageThumbnailHandler(
            thumbnailer: try Thumbnailer(configuration: configuration, threadPool: .singleton),
            store: ThumbnailStore(outputDirectory: output, configuration: configuration), downloader: downloader,
            policy: policy, imageConcurrency: 1, threadPool: .singleton)
        for number in ["PIN-1", "PIN-2"] {
            let artwork = Artwork(
                objectNumber: number, title: "t", artist: "a", imageURL: "http://rebind.invalid:\(port)/\(number).jpg",
                width: nil, height: nil, position: 0)
            let item = try await handler.item(for: artwork)
            #expect(item.status == .ok, "\(number): \(item.reason ?? "-")")
        }
        #expect(lookups.withLock { $0 } == 2, "every download is checked")
    }

    @Test(
        "two versions of a work, thumbnailed in either order, each keep the bytes their item describes; a replay of either downloads nothing"
    )
    func versionsKeepTheirFiles() async throws {
        let images = try await LoopbackImages.start(
            [
                "/full.jpg": try SampleImage.noisy(width: 900, height: 600, seed: 11),
                "/incremental.jpg": try SampleImage.noisy(width: 600, height: 900, seed: 12),
            ], sizes: [100, 200], label: "versions")
        defer { Task { await images.stop() } }
        let (handler, server, output) = (images.handler, images.server, images.output)
        func version(_ path: String) -> Artwork { images.artwork("SK-A-1", path) }
        func expectFilesHold(_ item: PageThumbnails.Item) throws {
            #expect(item.status == .ok && item.files.count == 2, "\(item.reason ?? "-")")
            for file in item.files {
                let bytes = Array(try Data(contentsOf: output.appendingPathComponent(file.path)))
                #expect(SHA256.hexDigest(of: bytes) == file.sha256, "\(file.path) holds another version's bytes")
            }
        }
        // The incremental harvest's page is thumbnailed first, the full harvest's after it.
        let incremental = try await handler.item(for: version("/incremental.jpg"))
        let full = try await handler.item(for: version("/full.jpg"))
        try expectFilesHold(incremental)
        try expectFilesHold(full)
        #expect(Set(incremental.files.map(\.path)).isDisjoint(with: full.files.map(\.path)))

        let downloads = server.requests.count
        #expect(try await handler.item(for: version("/incremental.jpg")) == incremental)
        #expect(try await handler.item(for: version("/full.jpg")) == full)
        #expect(server.requests.count == downloads, "a replay of either version reuses its files")
        try expectFilesHold(incremental)
    }

    @Test("private addresses are refused unless allowed, and only allowed hosts are fetched")
    func hostPolicy() async {
        let strict = HostPolicy(allowedHosts: ["127.0.0.1", "localhost", "googleusercontent.com"])
        for url in [
            "http://127.0.0.1/x.jpg", "http://localhost/x.jpg", "http://evil.example/x.jpg",
            "ftp://lh3.googleusercontent.com/x", "file:///etc/passwd",
        ] {
            await #expect(throws: HostPolicy.Refusal.self, "\(url)") { try await strict.check(URL(string: url)!) }
        }
        let relaxed = HostPolicy(allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true)
        await #expect(throws: Never.self) { try await relaxed.check(URL(string: "http://127.0.0.1:8080/x.jpg")!) }
        for private_ in [[10, 1, 2, 3], [192, 168, 0, 1], [172, 20, 0, 1], [169, 254, 1, 1], [127, 0, 0, 1]] {
            #expect(HostPolicy.isPrivate(.init(bytes: private_.map(UInt8.init))))
        }
        #expect(!HostPolicy.isPrivate(.init(bytes: [142, 250, 1, 1])))
        #expect(HostPolicy.isPrivate(.init(bytes: [UInt8](repeating: 0, count: 15) + [1])), "::1")
        #expect(HostPolicy.isPrivate(.init(bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 10, 0, 0, 1])))
        // The rest of IANA's special-purpose ranges, and the IPv6 forms that reach an IPv4 address.
        for special in [
            [198, 18, 0, 1], [198, 19, 255, 254], [192, 0, 2, 7], [203, 0, 113, 9], [224, 0, 0, 1],
            [255, 255, 255, 255], [100, 127, 0, 1],
        ] {
            #expect(HostPolicy.isPrivate(.init(bytes: special.map(UInt8.init))), "\(special)")
        }
        #expect(!HostPolicy.isPrivate(.init(bytes: [198, 20, 0, 1])))
        func v6(_ head: [UInt8], tail: [UInt8] = []) -> HostPolicy.Address {
            .init(bytes: head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail)
        }
        for special in [
            v6([0, 0x64, 0xFF, 0x9B], tail: [10, 0, 0, 1]),  // NAT64 of 10.0.0.1
            v6([0x20, 0x02, 10, 0, 0, 1]),  // 6to4 of 10.0.0.1
            v6([0x20, 0x01, 0, 0]),  // Teredo
            v6([0x20, 0x01, 0x0D, 0xB8]), v6([0xFD, 0x12]), v6([0xFE, 0x80]), v6([0xFF, 0x02]),
        ] {
            #expect(HostPolicy.isPrivate(special), "\(special.bytes)")
        }
        #expect(!HostPolicy.isPrivate(v6([0x2A, 0x00, 0x14, 0x50])), "a public IPv6 address")
    }
}

@Suite("artpipe thumb-worker as a process", .timeLimit(.minutes(4)))
struct ThumbWorkerProcessTests {
    @Test(
        "thumb-worker thumbnails a page, publishes its PageThumbnails and exits 0 on SIGTERM; downloads name artpipe's version and --contact"
    )
    func process() async throws {
        let image = try SampleImage.noisy(width: 1600, height: 900, seed: 5)
        let server = try await TestHTTPServer.start { _ in .init(headers: [("Content-Type", "image/jpeg")], body: image)
        }
        defer { Task { await server.stop() } }
        let cluster = try TestCluster()
        for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 2) }
        let (worker, output) = try Self.startWorker(
            cluster, label: "thumb-process", ["--sizes", "120,240", "--contact", "mailto:ops@example.org"])
        defer { worker.stop() }
        let request = PageRequest(crawlId: "c", source: "rijksmuseum", query: [:], page: 1, pageSize: 1)
        let artwork = Artwork(
            objectNumber: "SK-C-5", title: "t", artist: "a", imageURL: "\(server.baseURL)/i.jpg", width: nil,
            height: nil,
            position: 0)
        try await cluster.producer.send(
            MessageCodec.record(Page(request: request, total: 1, artworks: [artwork]), topic: ArtpipeTopic.pages))
        let messages = try await readTopic(
            ArtpipeTopic.thumbnails, brokers: cluster.brokers, count: 1, timeout: .seconds(180))
        worker.signal(SIGTERM)
        #expect(try await worker.waitForExit(timeout: .seconds(40)) == 0)
        let message = try #require(messages.first, "no thumbnails; the worker's log:\n\(worker.stderr)")
        let item = try #require(try MessageCodec.decode(PageThumbnails.self, from: message).items.first)
        #expect(item.status == .ok)
        let folder = ThumbnailFileName.folder("SK-C-5")
        var configuration = Thumbnailer.Configuration()
        configuration.sizes = [120, 240]
        let version = ThumbnailStore(outputDirectory: output, configuration: configuration).version(
            of: artwork.imageURL!)
        #expect(
            item.files.map(\.path) == [
                "thumbs/120/\(folder)/SK-C-5.\(version).jpg", "thumbs/240/\(folder)/SK-C-5.\(version).jpg",
            ])
        #expect(item.files.map(\.width) == [120, 240])
        // The image host is told who asks, as the API is (it was `artpipe/1`).
        let agent = server.requests.first?.headers["user-agent"] ?? ""
        #expect(agent.hasPrefix("artpipe/0.") && agent.hasSuffix(" (+mailto:ops@example.org)"), "\(agent)")
        await cluster.shutdown()
    }

    @Test("--image-host-concurrency bounds the downloads from one host at once, across a page's images")
    func imageHostConcurrency() async throws {
        let image = try SampleImage.noisy(width: 300, height: 200, seed: 9)
        let inFlight = Mutex((now: 0, most: 0))
        let server = try await TestHTTPServer.start { _ in
            inFlight.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            // A slow host: the input that lets downloads overlap, not a wait for anything.
            try? await Task.sleep(for: .milliseconds(300))
            inFlight.withLock { $0.now -= 1 }
            return .init(headers: [("Content-Type", "image/jpeg")], body: image)
        }
        defer { Task { await server.stop() } }
        let cluster = try TestCluster()
        for topic in ArtpipeTopic.all { try cluster.broker.createTopic(topic, partitions: 1) }
        let (worker, _) = try Self.startWorker(
            cluster, label: "host-limit",
            ["--sizes", "100", "--image-concurrency", "4", "--image-host-concurrency", "2"])
        defer { worker.stop() }
        let request = PageRequest(crawlId: "c", source: "rijksmuseum", query: [:], page: 1, pageSize: 8)
        let artworks = (0..<8).map {
            Artwork(
                objectNumber: "SK-\($0)", title: "t", artist: "a", imageURL: "\(server.baseURL)/\($0).jpg", width: nil,
                height: nil, position: $0)
        }
        try await cluster.producer.send(
            MessageCodec.record(Page(request: request, total: 8, artworks: artworks), topic: ArtpipeTopic.pages))
        // A deadline, not a wait: under a loaded CI machine the worker once took longer than 60 s.
        let messages = try await readTopic(
            ArtpipeTopic.thumbnails, brokers: cluster.brokers, count: 1, timeout: .seconds(180))
        let first = try #require(messages.first, "no thumbnails; the worker's log:\n\(worker.stderr)")
        let items = try MessageCodec.decode(PageThumbnails.self, from: first).items
        #expect(items.allSatisfy { $0.status == .ok })
        #expect(inFlight.withLock { $0.most } == 2, "eight images, four at a time in libvips, two from the host")
        await cluster.shutdown()
    }

    /// `artpipe thumb-worker` on `cluster`, allowed to download from loopback, into a new folder.
    static func startWorker(_ cluster: TestCluster, label: String, _ flags: [String]) throws -> (ChildProcess, URL) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make(label))
        let worker = try ChildProcess(
            "artpipe",
            [
                "thumb-worker", "--brokers", cluster.brokers, "--out", output.path, "--allow-host", "127.0.0.1",
                "--allow-private-hosts",
            ] + flags + EmbeddedBrokerSettings.flags)
        return (worker, output)
    }

    @Test(
        "bad thumb-worker flags: one line, exit 2",
        arguments: [
            ["--sizes", "big"], ["--quality", "0"], ["--image-host-concurrency", "0"], ["--formats", "jpeg,png"],
            ["--webp", "--formats", "jpeg"], ["--webp-quality", "101"],
        ])
    func badFlags(flags: [String]) async throws {
        let command = try ChildProcess(
            "artpipe", ["thumb-worker", "--brokers", "127.0.0.1:1", "--out", "/tmp/x"] + flags)
        #expect(try await command.waitForExit(timeout: .seconds(30)) == 2)
        #expect(command.stderr.split(separator: "\n").count == 1, "\(command.stderr)")
        #expect(command.stderr.contains(flags[0]), "\(command.stderr)")
    }
}
