import Foundation
import ObjectStorage

/// The shards' and page partitions' summaries, kept in the output beside the index under
/// `.artpipe-index/` (no index file is named so: the publisher and prune leave them alone), each
/// with a sequence number its owner raises on every change, a new owner going on from the last
/// one's; and which of them the published shared files were assembled from.
package struct IndexSummaries: Sendable {
    package static let folder = ".artpipe-index"
    package static let assembledPath = "\(folder)/assembled.json"
    /// Written once every summary first reached what the topics held: from then on the shards
    /// publish their bucket files (before, the output keeps what it had, a 0.6 index included).
    package static let bootstrappedPath = "\(folder)/bootstrapped.json"

    /// A summary as it is stored: its sequence number and its body.
    package struct Stored<Summary: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        package var sequence: Int
        package var summary: Summary

        package init(sequence: Int, summary: Summary) {
            (self.sequence, self.summary) = (sequence, summary)
        }
    }

    let output: any OutputStore
    private let decoded = DecodedSummaries()

    package init(output: any OutputStore) {
        self.output = output
    }

    package static let shardsFolder = "\(folder)/shards/"
    static func shardPath(_ shard: Int) -> String { "\(shardsFolder)\(shard).json" }
    package static let pagesFolder = "\(folder)/pages/"
    static func pagesPath(_ partition: Int) -> String { "\(pagesFolder)\(partition).json" }

    /// Writes a shard's summary when it changed, one sequence number after the stored one.
    /// Returns the sequence number it has now.
    @discardableResult
    package func write(_ summary: ShardSummary) throws -> Int {
        // The large and frequent one: written and read by hand (``Stored/json``).
        let path = Self.shardPath(summary.shard)
        return try write(summary, at: path, over: try readShard(path)) { $0.json }
    }

    /// Writes a page partition's summary when its pages changed; a newer ``PagesSummary/worksEnd``
    /// alone is not a change (the stored one still covers its pages).
    @discardableResult
    package func write(_ summary: PagesSummary) throws -> Int {
        let path = Self.pagesPath(summary.partition)
        let stored: (value: Stored<PagesSummary>, version: OutputVersion)? = try readVersioned(path)
        if let stored, !Self.differ(stored.value.summary, summary) { return stored.value.sequence }
        return try write(summary, at: path, over: stored) { try Self.encoder.encode($0).bytes }
    }

    /// Whether ``write(_:)-(PagesSummary)`` would write `summary`: its pages differ from the
    /// stored ones, or the stored summary names no end. Only then is the end worth asking for.
    package func changes(_ summary: PagesSummary) throws -> Bool {
        let stored: Stored<PagesSummary>? = try read(Self.pagesPath(summary.partition))
        return stored.map { Self.differ($0.summary, summary) } ?? true
    }

    private static func differ(_ stored: PagesSummary, _ summary: PagesSummary) -> Bool {
        stored.pagesOnly != summary.pagesOnly || stored.worksEnd == nil
    }

    /// Every shard's and page partition's summary, `count` of each, with the sequence numbers
    /// read; nil while one is missing (a partition whose owner is not ready yet).
    package func read(count: Int) throws -> (shards: [ShardSummary], pages: [PagesSummary], versions: SummaryVersions)?
    {
        var versions = SummaryVersions()
        var (shards, pages): ([ShardSummary], [PagesSummary]) = ([], [])
        for index in 0..<count {
            guard let shard = try readShard(Self.shardPath(index))?.value,
                let partition: Stored<PagesSummary> = try read(Self.pagesPath(index))
            else { return nil }
            shards.append(shard.summary)
            pages.append(partition.summary)
            versions.sequences[Self.shardPath(index)] = shard.sequence
            versions.sequences[Self.pagesPath(index)] = partition.sequence
        }
        return (shards, pages, versions)
    }

    /// `shard`'s summary as the output holds it, with its sequence number; nil when there is none.
    package func stored(shard: Int) throws -> (summary: ShardSummary, sequence: Int)? {
        try readShard(Self.shardPath(shard)).map { ($0.value.summary, $0.value.sequence) }
    }

    /// The summaries the published shared files were assembled from; empty when none were.
    package func assembled() throws -> SummaryVersions {
        try read(Self.assembledPath) ?? SummaryVersions()
    }

    /// Whether the index in this output has once been complete (``bootstrappedPath``).
    package func isBootstrapped() throws -> Bool {
        try output.read(Self.bootstrappedPath) != nil
    }

    /// Records that every summary has reached what the topics held, `versions` being those.
    package func markBootstrapped(_ versions: SummaryVersions) throws {
        try output.write(try Self.encoder.encode(versions).bytes, to: Self.bootstrappedPath, durable: true)
    }

    /// Records the summaries the shared files were just assembled from.
    package func recordAssembled(_ versions: SummaryVersions) throws {
        try output.write(try Self.encoder.encode(versions).bytes, to: Self.assembledPath, durable: true)
    }

    /// Writes `summary` unless `stored`, the summary at `path` now, is the same; only over the
    /// version read (``OutputCondition``), so a copy that stalled after its read replaces no
    /// summary another copy wrote meanwhile (``OutputConflict``, for the moment).
    private func write<Summary: Codable & Sendable & Equatable>(
        _ summary: Summary, at path: String, over stored: (value: Stored<Summary>, version: OutputVersion)?,
        encode: (Stored<Summary>) throws -> [UInt8]
    ) throws -> Int {
        if let stored, stored.value.summary == summary { return stored.value.sequence }
        let next = Stored(sequence: (stored?.value.sequence ?? 0) + 1, summary: summary)
        let bytes = try encode(next)
        try output.write(
            [(path, bytes)], durable: true, conditions: [path: stored.map { .version($0.version) } ?? .absent])
        // The next round reads it back: known without decoding it again.
        decoded.remember(next, of: bytes, at: path)
        return next.sequence
    }

    private func read<Value: Decodable & Sendable>(_ path: String) throws -> Value? {
        try readVersioned(path)?.value
    }

    private func readVersioned<Value: Decodable & Sendable>(_ path: String) throws -> (
        value: Value, version: OutputVersion
    )? {
        try read(path) { try JSONDecoder().decode(Value.self, from: Data($0)) }
    }

    /// A shard's stored summary, read by hand as it is written (``Stored/init(json:)``), or
    /// decoded when it is not in that form.
    private func readShard(_ path: String) throws -> (value: Stored<ShardSummary>, version: OutputVersion)? {
        try read(path) { bytes in
            try Stored(json: bytes) ?? JSONDecoder().decode(Stored<ShardSummary>.self, from: Data(bytes))
        }
    }

    private func read<Value: Sendable>(_ path: String, decode: ([UInt8]) throws -> Value) throws -> (
        value: Value, version: OutputVersion
    )? {
        guard let (bytes, version) = try output.readVersioned(path) else { return nil }
        return (try decoded.value(of: bytes, at: path, decode: decode), version)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}

extension Data {
    fileprivate var bytes: [UInt8] { Array(self) }
}

/// Which summaries, at which sequence numbers, something was built from.
package struct SummaryVersions: Codable, Sendable, Equatable {
    package var sequences: [String: Int] = [:]

    package init(sequences: [String: Int] = [:]) {
        self.sequences = sequences
    }

    /// At least as new as `other` in every summary `other` names, and newer in one or naming
    /// one more: what may replace shared files built from `other` without taking the index back.
    package func supersedes(_ other: SummaryVersions) -> Bool {
        covers(other) && self != other
    }

    /// At least as new as `other` in every summary `other` names.
    package func covers(_ other: SummaryVersions) -> Bool {
        other.sequences.allSatisfy { sequences[$0.key, default: -1] >= $0.value }
    }
}
