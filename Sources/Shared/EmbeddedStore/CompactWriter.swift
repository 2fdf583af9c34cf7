/// Writes a store's values as compact bytes: no field names, integers as variable-length
/// (zigzag) numbers, text and lists after their lengths. What ``CompactReader`` reads back in
/// the same order. JSON of a work's state cost more than SQLite itself (profiled); this is the
/// store's own format, never a message's.
package struct CompactWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {
        bytes.reserveCapacity(256)
    }

    package mutating func write(_ number: Int) {
        // Zigzag: small negative numbers stay short too.
        var value = UInt64(bitPattern: Int64((number << 1) ^ (number >> (Int.bitWidth - 1))))
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    package mutating func write(_ flag: Bool) {
        bytes.append(flag ? 1 : 0)
    }

    package mutating func write(_ text: String) {
        var text = text
        text.withUTF8 {
            write($0.count)
            bytes.append(contentsOf: $0)
        }
    }

    package mutating func write(_ text: String?) {
        write(text != nil)
        if let text { write(text) }
    }

    package mutating func write(_ number: Int?) {
        write(number != nil)
        if let number { write(number) }
    }

    /// The pairs by key, so equal dictionaries give equal bytes.
    package mutating func write(_ pairs: [String: String]) {
        write(pairs.count)
        for (key, value) in pairs.sorted(by: { $0.key < $1.key }) {
            write(key)
            write(value)
        }
    }

    package mutating func write<Element>(_ list: [Element], _ each: (inout CompactWriter, Element) -> Void) {
        write(list.count)
        for element in list { each(&self, element) }
    }

    package mutating func write<Value>(_ value: Value?, _ each: (inout CompactWriter, Value) -> Void) {
        write(value != nil)
        if let value { each(&self, value) }
    }
}
