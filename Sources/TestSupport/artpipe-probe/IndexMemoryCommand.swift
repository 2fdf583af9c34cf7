import ArgumentParser
import Foundation
import IndexWorker
import KafkaClient
import PipelineContract

/// `artpipe-probe index-memory`: what each stage of the index holds a work, in this process.
/// The pages of `produce-pages` (and their thumbnails) go through the pages stage's state, the
/// rows it writes through the works stage's, the lines that writes through the artist shards',
/// each decoded from its JSON as a stage reads it from Kafka; the resident memory each
/// stage's state adds, a work (`/proc/self/statm`, after the inputs were made and the memory
/// that took was given back; the work keys, made with the inputs, are not counted).
struct IndexMemoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index-memory", abstract: "Measure the bytes a work each index stage's state holds.")

    @Option var works: Int = 100_000
    @Flag(help: "Works with record ids and datestamps, as OAI-PMH gives them.")
    var versioned = false
    @Flag(help: "Every page's thumbnails too, two sizes a work.")
    var thumbnails = false

    func run() throws {
        let pageCount = max(works / 100, 1)
        let shards = IndexShards(count: 12)
        // What each stage reads, made first and kept as the bytes Kafka gives it: each stage,
        // measured next, decodes them as it reads, and keeps only what its state keeps.
        let inputs = try (1...pageCount).flatMap(messages)
        let rows = try Self.rows(of: inputs)
        let lines = try Self.lines(of: rows, shards: shards)
        Self.trim()

        let beforePages = Self.resident()
        var pages = PagePartition(partition: 0)
        for input in inputs { _ = try Self.apply(input, to: &pages) }
        let afterPages = Self.resident()
        var workPartition = WorkPartition(shards: shards)
        for row in rows { _ = workPartition.apply(row.work, key: row.key, row: try row.value.map(Self.decode)) }
        let afterWorks = Self.resident()
        var shardWorks = (0..<shards.count).map { ShardWorks(shard: $0) }
        for line in lines { try shardWorks[line.shard].apply(line.work, try line.value.map(Self.decode)) }
        let afterArtists = Self.resident()

        let count = workPartition.works.count
        func perWork(_ bytes: Int) -> Int { bytes / max(count, 1) }
        print("\(count) works\(versioned ? ", versioned" : "")\(thumbnails ? ", with thumbnails" : ""): bytes a work")
        print("  pages stage (each page's entry): \(perWork(afterPages - beforePages))")
        print("  works stage (each work's rows, and where its line went): \(perWork(afterWorks - afterPages))")
        print("  artist stage (each work's line, grouped by artist): \(perWork(afterArtists - afterWorks))")
        withExtendedLifetime((pages, shardWorks)) {}
    }

    /// A message of the pages stage: a page or its thumbnails, as JSON.
    private enum Input {
        case page([UInt8])
        case thumbnails([UInt8])
    }

    /// A row or line as its stage reads it: the work's key, the record's key, the JSON (nil: a tombstone).
    private struct Encoded {
        var work: WorkKey
        var key: String
        var shard: Int
        var value: [UInt8]?
    }

    private func messages(_ number: Int) throws -> [Input] {
        let page = ProducePagesCommand.page(number, works: 100, of: max(works / 100, 1) * 100, versioned: versioned)
        var inputs = [Input.page(try Self.encode(page))]
        if thumbnails { inputs.append(.thumbnails(try ProducePagesCommand.thumbnailsRecord(page).value)) }
        return inputs
    }

    private static func apply(_ input: Input, to pages: inout PagePartition) throws -> PagePartition.Writes {
        switch input {
        case .page(let bytes): try pages.apply(.page(try decode(bytes)))
        case .thumbnails(let bytes): try pages.apply(.thumbnails(try decode(bytes)))
        }
    }

    /// The rows the pages stage writes for `inputs`.
    private static func rows(of inputs: [Input]) throws -> [Encoded] {
        var pages = PagePartition(partition: 0)
        return try inputs.flatMap { input in
            try apply(input, to: &pages).works.map {
                Encoded(work: $0.work, key: $0.key, shard: 0, value: try $0.row.map(encode))
            }
        }
    }

    /// The lines the works stage writes for `rows`.
    private static func lines(of rows: [Encoded], shards: IndexShards) throws -> [Encoded] {
        var partition = WorkPartition(shards: shards)
        var lines: [Encoded] = []
        for row in rows {
            let writes = partition.apply(row.work, key: row.key, row: try row.value.map(decode) as WorkRow?)
            lines += try writes.artists.map {
                Encoded(work: $0.work, key: "", shard: $0.shard, value: try $0.row.map(encode))
            }
        }
        return lines
    }

    private static func encode(_ value: some Encodable) throws -> [UInt8] { Array(try JSONEncoder().encode(value)) }
    private static func decode<T: Decodable>(_ bytes: [UInt8]) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(bytes))
    }

    /// Gives memory freed so far back to the system, so what follows is measured from there.
    private static func trim() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    /// Resident bytes now (`/proc/self/statm`).
    static func resident() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
        return (Int(statm.split(separator: " ")[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
