import ArgumentParser
import ArtpipeRuntime
import ArtpipeSupport
import Foundation
import IndexWorker
import KafkaClient
import Logging
import PipelineContract

/// `artpipe-probe index-state`: the state an IndexWorker would have after indexing WORKS works
/// (shards in DIR/.index-state/), for the scale benchmark; then, with `--measure`, each phase
/// of a full publish from that state, timed in this process.
struct IndexStateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index-state",
        abstract: "Write the index state of WORKS works by ARTISTS artists to DIR, as IndexWorker writes it.")

    @Option var out: String
    @Option var works: Int = 1_000_000
    @Option var artists: Int = 30_000
    @Option(help: "artpipe.pages partitions the pages are spread over (one shard each).")
    var partitions: Int = 12
    @Flag(help: "Works as a versioned source (OAI-PMH) gives them: each with a record id and a datestamp.")
    var versioned = false
    @Flag(help: "Then time each phase of a full publish from the state.")
    var measure = false
    @Flag(help: "Time the phases on the state already in DIR, writing none.")
    var measureOnly = false

    func validate() throws {
        guard works >= 1, artists >= 1, partitions >= 1 else {
            throw ValidationError("--works, --artists and --partitions must be at least 1")
        }
    }

    func run() async throws {
        ArtpipeLogging.bootstrap(level: .warning)
        let output = URL(fileURLWithPath: out, isDirectory: true)
        let store = try IndexStateStore(outputDirectory: output, logger: Logger(label: "artpipe.probe"))
        guard !measureOnly else { return try measurePhases(output: output) }
        let makers = SampleGalleryCommand.makers(artists)
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        let pageSize = 100
        for partition in 0..<partitions {
            _ = store.startOffset(for: KafkaTopicPartition(topic: ArtpipeTopic.pages, partition: Int32(partition)))
            _ = store.startOffset(for: KafkaTopicPartition(topic: ArtpipeTopic.thumbnails, partition: Int32(partition)))
        }
        for first in stride(from: 0, to: works, by: pageSize) {
            let number = first / pageSize + 1
            let request = PageRequest(
                crawlId: "scale", source: versioned ? "rijksmuseum-oai" : "rijksmuseum", query: ["s": "artist"],
                page: number, pageSize: pageSize)
            var artworks: [Artwork] = []
            var items: [PageThumbnails.Item] = []
            for serial in first..<min(first + pageSize, works) {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let share = Double(random >> 11) / Double(1 << 53)
                let objectNumber = "SK-A-\(serial)"
                artworks.append(
                    Artwork(
                        objectNumber: objectNumber, title: "Work \(serial), study of a head",
                        artist: makers[min(Int(Double(makers.count) * share * share * share), makers.count - 1)],
                        imageURL: "https://lh3.googleusercontent.com/scale\(serial)=s512", width: 2000, height: 1500,
                        position: serial - first,
                        recordId: versioned ? "https://id.rijksmuseum.nl/200\(serial)" : nil,
                        // A harvest's records change in batches: a few hundred share each second.
                        datestamp: versioned ? Self.datestamp(serial / 300) : nil))
                items.append(
                    .init(
                        objectNumber: objectNumber, status: .ok,
                        files: [200, 400].map {
                            .init(
                                size: $0, path: "thumbs/\($0)/\(serial % 256)/\(objectNumber).jpg", width: $0,
                                height: $0 * 3 / 4, bytes: 9_000, sha256: "")
                        }))
            }
            let page = Page(request: request, total: works, artworks: artworks)
            let thumbnails = PageThumbnails(pageId: page.pageId, items: items)
            let partition = Int32(number % partitions)
            // Offset -1 in every shard: a worker started on this state reads its partitions from
            // the start, where a benchmark's new pages are, on a broker that never held these.
            let offset: Int64 = -1
            for (topic, value) in [
                (ArtpipeTopic.pages, try MessageCodec.record(page, topic: ArtpipeTopic.pages).value),
                (ArtpipeTopic.thumbnails, try MessageCodec.record(thumbnails, topic: ArtpipeTopic.thumbnails).value),
            ] {
                let message = KafkaConsumerMessage(
                    topic: topic, partition: partition, offset: offset, key: Array(page.pageId.utf8), value: value,
                    timestampMilliseconds: 1_700_000_000_000 + Int64(number))
                store.apply(message, pageId: page.pageId) { inputs in
                    if topic == ArtpipeTopic.pages {
                        inputs.add(page, producedAt: message.timestampMilliseconds)
                    } else {
                        inputs.add(thumbnails, producedAt: message.timestampMilliseconds)
                    }
                }
            }
        }
        _ = try store.flush()
        print(
            "wrote the state of \(works) works by \(makers.count) artists in \(partitions * 2) partitions' part files under \(output.path)"
        )
        if measure { try measurePhases(output: output) }
    }

    /// Seconds after 2020-01-01 as an OAI-PMH datestamp.
    static func datestamp(_ seconds: Int) -> String {
        Date(timeIntervalSince1970: 1_577_836_800 + Double(seconds)).formatted(.iso8601)
    }

    private func measurePhases(output: URL) throws {
        let clock = ContinuousClock()
        var phases: [(String, Duration)] = []
        var start = clock.now
        func lap(_ name: String) {
            phases.append((name, clock.now - start))
            start = clock.now
        }
        // A store of its own: one that wrote the state would hand its inputs over without reading.
        let store = try IndexStateStore(outputDirectory: output, logger: Logger(label: "artpipe.probe"))
        start = clock.now
        let inputs = try store.inputsOnDisk()
        lap("read shards")
        let index = ArtistIndex.build(from: inputs)
        lap("plain build (the rules' reference, not what a worker runs)")
        let files = IndexLayout.files(for: index)
        lap("render every file")
        let publisher = IndexPublisher(outputDirectory: output, store: store)
        let written = try publisher.publish()
        lap("publish: merge, live build, render and write every file")
        // One new page, as a worker takes it in: applied, its part written, then published.
        let pageNumber = inputs.pages.values.map(\.page).max()! + 1
        let request = PageRequest(
            crawlId: "scale", source: "rijksmuseum", query: ["s": "artist"], page: pageNumber, pageSize: 100)
        let page = Page(
            request: request, total: index.totals.works + 100,
            artworks: (0..<100).map {
                Artwork(
                    objectNumber: "SK-B\(pageNumber)-\($0)", title: "New work \($0)",
                    artist: index.artists[$0 * 7 % index.artists.count].name,
                    imageURL: nil, width: nil, height: nil, position: $0)
            })
        let message = KafkaConsumerMessage(
            topic: ArtpipeTopic.pages, partition: 0, offset: -1, key: Array(page.pageId.utf8), value: [],
            timestampMilliseconds: 1_800_000_000_000)
        _ = store.startOffset(for: KafkaTopicPartition(topic: ArtpipeTopic.pages, partition: 0))
        start = clock.now
        store.apply(message, pageId: page.pageId) { $0.add(page, producedAt: message.timestampMilliseconds) }
        _ = try store.flush()
        let changed = try publisher.publish()
        lap("one new page of 100 works: applied, flushed and published (\(changed) files changed)")
        let full = phases[0].1 + phases[3].1
        let works = index.totals.works
        for (name, duration) in phases { print("  \(name): \(duration)") }
        print(
            "full build (read shards, then publish) \(full): \(Int(Double(works) / full.seconds)) works/s; "
                + "\(files.count) files, \(files.values.map(\.count).reduce(0, +) >> 20) MiB; publish wrote \(written) files"
        )
    }
}
