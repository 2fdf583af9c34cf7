import ArgumentParser
import ArtpipeCommandLine
import ArtpipeRuntime
import Foundation
import KafkaClient
import Logging
import PipelineContract

/// `artpipe-probe produce-pages`: fills artpipe.pages with synthetic pages, for the index benchmark.
struct ProducePagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "produce-pages", abstract: "Publish PAGES synthetic pages of WORKS artworks each to artpipe.pages."
    )

    @OptionGroup var kafka: KafkaOptions
    @Option var pages: Int = 1_000
    @Option var works: Int = 100
    @Option(help: "The first page's number: pages after another run's, or after an index's state, are new pages.")
    var firstPage: Int = 1
    @Option(
        help: """
            Image URLs: %03d becomes the work's serial modulo --images (a folder of img000.jpg… served over HTTP, \
            for the thumbnail benchmark). Default: URLs nobody serves, for the index benchmark.
            """)
    var imageURL: String?
    @Option(help: "How many images --image-url names.")
    var images: Int = 1
    @Flag(help: "Works as a versioned source (OAI-PMH) gives them: each with a record id and a datestamp.")
    var versioned = false
    @Flag(help: "Also each page's thumbnails to artpipe.thumbnails, two sizes a work, as ThumbWorker publishes them.")
    var thumbnails = false
    @Option(
        help: """
            Send one record to this topic and read the topics' metadata before the pages: a new \
            producer's first records wait for its producer id and the topic's metadata (a second or \
            two), so the pages' timestamps then say when they reached the broker.
            """)
    var warmUpTopic: String?

    /// A page outside the contract's limits is dead-lettered, not indexed: refused here instead.
    func validate() throws {
        for number in [firstPage, firstPage + pages - 1] {
            if let problem = Self.request(number, works: works, versioned: versioned).outOfRange {
                throw ValidationError(problem)
            }
        }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let producer = try KafkaProducer(
            configuration: try kafka.clientConfiguration(), logger: Logger(label: "artpipe.probe"))
        if let warmUpTopic {
            try await producer.send([KafkaProducerRecord(topic: warmUpTopic, key: nil, value: [])])
            // A first record to a topic librdkafka has no metadata for waits for its next scan of
            // topics (up to a second); asking for every topic's metadata now fills its cache.
            _ = try await producer.metadata(timeout: .seconds(10))
        }
        let last = firstPage + pages - 1
        for first in stride(from: firstPage, through: last, by: 100) {
            let batch = (first...min(last, first + 99)).map { number in
                Self.page(
                    number, works: works, of: pages * works, versioned: versioned,
                    imageURL: { serial in imageURL.map { String(format: $0, serial % max(images, 1)) } })
            }
            try await producer.send(try batch.map { try MessageCodec.record($0, topic: ArtpipeTopic.pages) })
            if thumbnails { try await producer.send(try batch.map(Self.thumbnailsRecord)) }
        }
        await producer.shutdown()
        print("published \(pages) pages of \(works) works")
    }

    /// The request synthetic page `number` answers.
    static func request(_ number: Int, works: Int, versioned: Bool) -> PageRequest {
        PageRequest(
            crawlId: "bench", source: versioned ? "rijksmuseum-oai" : "rijksmuseum", query: ["s": "artist"],
            page: number, pageSize: works)
    }

    /// Synthetic page `number` of `works` works, of a collection of `total`: works of an artist
    /// run across pages, as the artist-sorted API returns them; `versioned`, with record ids and
    /// datestamps as OAI-PMH gives them; `imageURL` of a work's serial, when not the default.
    static func page(
        _ number: Int, works: Int, of total: Int, versioned: Bool, imageURL: (Int) -> String? = { _ in nil }
    ) -> Page {
        let request = Self.request(number, works: works, versioned: versioned)
        let artworks = (0..<works).map { position in
            let serial = (number - 1) * works + position
            return Artwork(
                objectNumber: "BENCH-\(serial)", title: "Work \(serial)", artist: "Artist \(serial / 37)",
                imageURL: imageURL(serial) ?? "https://lh3.googleusercontent.com/bench\(serial)=s512", width: 2000,
                height: 1500, position: position, recordId: versioned ? "https://id.rijksmuseum.nl/300\(serial)" : nil,
                datestamp: versioned ? datestamp(serial / 300) : nil)
        }
        return Page(request: request, total: total, artworks: artworks)
    }

    /// A harvest's records change in batches: a few hundred share each second.
    static func datestamp(_ seconds: Int) -> String {
        Date(timeIntervalSince1970: 1_577_836_800 + Double(seconds)).formatted(.iso8601)
    }

    /// The thumbnails ThumbWorker would publish for a page: every work's image made in two
    /// sizes, with paths and digests as long as real ones (the same in every run).
    static func thumbnailsRecord(_ page: Page) throws -> KafkaProducerRecord {
        let items = page.artworks.map { artwork in
            // FNV-1a of the object number: a stand-in for the image's digest.
            let hash = artwork.objectNumber.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) {
                ($0 ^ UInt64($1)) &* 0x100_0000_01b3
            }
            let digest = String(hash, radix: 16)
            var item = PageThumbnails.Item(
                objectNumber: artwork.objectNumber, status: .ok,
                files: [200, 400].map { size in
                    PageThumbnails.File(
                        size: size, path: "thumbs/\(size)/\(digest.prefix(2))/\(artwork.objectNumber).\(digest).jpg",
                        width: size, height: size * 3 / 4, bytes: 9_000 * size / 200,
                        sha256: String(repeating: digest, count: 4).padding(toLength: 64, withPad: "0", startingAt: 0))
                })
            item.imageURL = artwork.imageURL
            return item
        }
        return try MessageCodec.record(
            PageThumbnails(pageId: page.pageId, items: items), topic: ArtpipeTopic.thumbnails)
    }
}
