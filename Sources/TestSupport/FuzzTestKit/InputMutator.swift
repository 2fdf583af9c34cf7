/// Makes hostile inputs from good ones: each input is one seed (a real record or answer) with
/// one to three of the damages hostile or broken servers deliver stacked on it.
///
/// The damages: bytes flipped, the input cut short, elements or arrays nested far past any
/// limit, numbers replaced by the edges of `Int` and beyond, entity tricks (an expanding
/// entity, an external one, undefined and forbidden character references), bytes that are
/// not UTF-8, a part repeated or spliced from another seed, an element given hundreds of
/// attributes, a text over a mebibyte.
package struct InputMutator: Sendable {
    package let seeds: [[UInt8]]

    package init(seeds: [[UInt8]]) {
        precondition(!seeds.isEmpty, "a mutator needs at least one seed")
        self.seeds = seeds
    }

    /// Input `number` of the campaign seeded `seed`: the same bytes on every machine.
    package func input(_ number: Int, seed: UInt64) -> [UInt8] {
        var random = FuzzRandom(seed: seed ^ (UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15))
        var bytes = random.pick(seeds)
        for _ in 0...random.below(3) { bytes = mutate(bytes, &random) }
        return bytes
    }

    /// Numbers a reader may negate, add to, multiply or convert.
    static let numbers = [
        "-9223372036854775808", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "-1", "0", "-0", "1e308", "-1e309", "NaN", "Infinity", "4294967296", "2147483648",
        "0x7fffffff", "1.5", "99999999999999999999999999999999",
    ]

    /// Bytes that are not UTF-8: a lone continuation, an overlong slash, a surrogate, a cut
    /// sequence, bytes UTF-8 never uses.
    static let invalidUTF8: [[UInt8]] = [
        [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xFF, 0xFE], [0xF8],
    ]

    /// Prologues with entity tricks, and references to put in text.
    static let entityPrologues = [
        "<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"
            + "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
            + "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">"
            + "<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">"
            + "<!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">]>",
        "<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>",
        "<!DOCTYPE r [<!ENTITY % p SYSTEM \"http://127.0.0.1:1/x.dtd\"> %p;]>",
        "<!DOCTYPE r [<!ENTITY loop \"&loop;\">]>",
    ]
    static let references = [
        "&e;", "&x;", "&loop;", "&nope;", "&#0;", "&#1;", "&#x110000;", "&#xD800;", "&#99999999999;",
    ]

    private func mutate(_ bytes: [UInt8], _ random: inout FuzzRandom) -> [UInt8] {
        var bytes = bytes
        let at = random.below(bytes.count + 1)
        switch random.below(11) {
        case 0:
            for _ in 0...random.below(8) where !bytes.isEmpty {
                bytes[random.below(bytes.count)] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            }
        case 1:
            bytes.removeSubrange(at...)
        case 2:
            // Deep: past the parser's limit, once in a while far past it (100,000 levels, about
            // 700 KB), closed or left open.
            let depth = random.below(8) == 0 ? 100_000 : random.pick([255, 256, 257, 1_000, 5_000])
            let (open, close) =
                random.below(2) == 0
                ? (Array("<a>".utf8), Array("</a>".utf8)) : (Array("[".utf8), Array("]".utf8))
            var nested = [UInt8]()
            nested.reserveCapacity(depth * (open.count + close.count))
            for _ in 0..<depth { nested += open }
            if random.below(3) != 0 { for _ in 0..<depth { nested += close } }
            bytes.insert(contentsOf: nested, at: tagBoundary(in: bytes, near: at))
        case 3:
            bytes = replacingNumber(in: bytes, near: at, with: random.pick(Self.numbers))
        case 4:
            let prologue = Array(random.pick(Self.entityPrologues).utf8)
            let reference = Array(random.pick(Self.references).utf8)
            bytes.insert(contentsOf: reference, at: tagBoundary(in: bytes, near: at))
            bytes.insert(contentsOf: prologue, at: prologueEnd(of: bytes))
        case 5:
            bytes.insert(contentsOf: random.pick(Self.invalidUTF8), at: at)
        case 6:
            let length = random.below(min(bytes.count - at, 4_096) + 1)
            let part = Array(bytes[at..<(at + length)])
            bytes.insert(contentsOf: part, at: random.below(bytes.count + 1))
        case 7:
            let other = random.pick(seeds)
            let from = random.below(other.count + 1)
            bytes = Array(bytes[..<at]) + other[from...]
        case 8:
            guard let tag = nextTagName(in: bytes, from: at) else { break }
            var attributes = [UInt8]()
            for number in 0..<random.pick([257, 1_000]) { attributes += Array(" a\(number)=\"v\"".utf8) }
            bytes.insert(contentsOf: attributes, at: tag)
        case 9:
            bytes.insert(
                contentsOf: [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 1),
                at: tagBoundary(in: bytes, near: at))
        default:
            bytes.insert(contentsOf: Array(random.pick(Self.references).utf8), at: tagBoundary(in: bytes, near: at))
        }
        return bytes
    }

    /// Just after the `>` at or after `index`, where text or an element may go; the end when none.
    private func tagBoundary(in bytes: [UInt8], near index: Int) -> Int {
        guard index < bytes.count, let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
            return bytes.count
        }
        return close + 1
    }

    /// After an `<?xml …?>` declaration, where a DOCTYPE may go; else the start.
    private func prologueEnd(of bytes: [UInt8]) -> Int {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else {
            return 0
        }
        return end + 1
    }

    /// Just after the name of the first start tag at or after `index`, where attributes may go.
    private func nextTagName(in bytes: [UInt8], from index: Int) -> Int? {
        var cursor = index
        while cursor + 1 < bytes.count {
            if bytes[cursor] == UInt8(ascii: "<"), Self.isNameStart(bytes[cursor + 1]) {
                var end = cursor + 1
                while end < bytes.count, Self.isNameByte(bytes[end]) { end += 1 }
                return end
            }
            cursor += 1
        }
        return nil
    }

    /// The digit run at or after `index` (with its sign) replaced by `number`; the input
    /// itself when it has none there.
    private func replacingNumber(in bytes: [UInt8], near index: Int, with number: String) -> [UInt8] {
        guard let start = bytes[min(index, bytes.count)...].firstIndex(where: Self.isDigit) else { return bytes }
        var end = start
        while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
        let from = start > 0 && bytes[start - 1] == UInt8(ascii: "-") ? start - 1 : start
        return Array(bytes[..<from]) + Array(number.utf8) + bytes[end...]
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
}
