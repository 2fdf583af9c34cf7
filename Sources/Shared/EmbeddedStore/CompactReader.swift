/// Reads what ``CompactWriter`` wrote, in the order it wrote it; bytes that end early or hold
/// what cannot be are a ``CompactReader/Malformed`` error.
package struct CompactReader {
    private let bytes: [UInt8]
    private var offset = 0

    package struct Malformed: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var isAtEnd: Bool { offset == bytes.count }

    package mutating func int() throws -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw Malformed(description: "a number ends early") }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int(Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
    }

    package mutating func bool() throws -> Bool {
        guard offset < bytes.count else { throw Malformed(description: "a flag ends early") }
        defer { offset += 1 }
        switch bytes[offset] {
        case 0: return false
        case 1: return true
        default: throw Malformed(description: "a flag of \(bytes[offset])")
        }
    }

    package mutating func string() throws -> String {
        let count = try int()
        guard count >= 0, count <= bytes.count - offset else { throw Malformed(description: "text ends early") }
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }

    package mutating func optionalString() throws -> String? {
        try bool() ? try string() : nil
    }

    package mutating func optionalInt() throws -> Int? {
        try bool() ? try int() : nil
    }

    package mutating func pairs() throws -> [String: String] {
        var pairs: [String: String] = [:]
        for _ in 0..<(try count()) { pairs[try string()] = try string() }
        return pairs
    }

    /// Passes over what ``pairs()`` reads, making no string of it.
    package mutating func skipPairs() throws {
        for _ in 0..<(try count()) * 2 {
            let length = try int()
            guard length >= 0, length <= bytes.count - offset else { throw Malformed(description: "text ends early") }
            offset += length
        }
    }

    package mutating func list<Element>(_ each: (inout CompactReader) throws -> Element) throws -> [Element] {
        var list: [Element] = []
        for _ in 0..<(try count()) { list.append(try each(&self)) }
        return list
    }

    package mutating func optional<Value>(_ each: (inout CompactReader) throws -> Value) throws -> Value? {
        try bool() ? try each(&self) : nil
    }

    /// A length: never more than the bytes left could hold.
    private mutating func count() throws -> Int {
        let count = try int()
        guard count >= 0, count <= bytes.count - offset else { throw Malformed(description: "a list ends early") }
        return count
    }
}
