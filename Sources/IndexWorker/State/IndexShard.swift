/// One part of what an input partition contributed to the index: the inputs whose page ids
/// hash to ``part``. A partition's state is cut into ``partCount`` such files, so a new page
/// rewrites one small file, not the partition's whole state.
///
/// Files from before the cut (one per partition, `part` absent) are read as a whole partition.
struct IndexShard: Codable, Sendable {
    static let partCount = 64

    var topic: String
    var partition: Int32
    /// Absent in a whole-partition file of the earlier form.
    var part: Int?
    /// The offset of the last message applied; only whole-partition files carry it (see ``Offset``).
    var offset: Int64?
    var inputs = IndexInputs()

    var fileName: String {
        part.map { Self.partFileName(topic, partition, $0) } ?? Self.wholeFileName(topic, partition)
    }

    /// FNV-1a of the page id: the same part on every instance, every run.
    static func part(of pageId: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in pageId.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(partCount))
    }

    static func partFileName(_ topic: String, _ partition: Int32, _ part: Int) -> String {
        "\(topic)-\(partition).\(part < 10 ? "0" : "")\(part).json"
    }

    static func wholeFileName(_ topic: String, _ partition: Int32) -> String { "\(topic)-\(partition).json" }

    /// The part number of `name` if it is one of this partition's part files.
    static func part(ofFile name: String, _ topic: String, _ partition: Int32) -> Int? {
        let prefix = "\(topic)-\(partition)."
        // The prefix, two digits and `.json`: no other topic's or partition's file has that form.
        guard name.utf8.count == prefix.utf8.count + 7, name.hasPrefix(prefix) else { return nil }
        return part(ofAnyFile: name)
    }

    /// The part number of any partition's part file (`….NN.json`); nil for a whole-partition file.
    static func part(ofAnyFile name: String) -> Int? {
        guard name.hasSuffix(".json") else { return nil }
        let stem = name.utf8.dropLast(".json".count)
        guard stem.count >= 3 else { return nil }
        let tail = Array(stem.suffix(3))
        guard tail[0] == UInt8(ascii: "."), let tens = digit(tail[1]), let ones = digit(tail[2]),
            tens * 10 + ones < partCount
        else { return nil }
        return tens * 10 + ones
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// How far a partition's parts reach: written after them, so parts are never behind it.
    struct Offset: Codable, Sendable {
        var offset: Int64

        static func fileName(_ topic: String, _ partition: Int32) -> String { "\(topic)-\(partition).offset" }
    }
}
