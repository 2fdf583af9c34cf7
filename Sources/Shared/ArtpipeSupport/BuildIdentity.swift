import Foundation

/// Which build of artpipe this process runs: the GNU build id the linker wrote into the
/// program (a digest of its contents), as lowercase hex. Two processes with the same id run the
/// same code; nil when the program carries none or cannot be read.
package enum BuildIdentity {
    /// This process's build id, read once from `/proc/self/exe`.
    package static let current: String? = read(program: "/proc/self/exe")

    /// The build id in the ELF file at `path`, from its note segments.
    package static func read(program path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        func bytes(at offset: UInt64, count: Int) -> [UInt8]? {
            // An offset a file cannot have is no program's.
            guard offset <= UInt64(Int64.max) - UInt64(count), (try? handle.seek(toOffset: offset)) != nil,
                let data = try? handle.read(upToCount: count), data.count == count
            else { return nil }
            return Array(data)
        }
        // A 64-bit little-endian ELF file: what Swift builds for on Linux.
        guard let header = bytes(at: 0, count: 64), header[0..<4] == [0x7f, 0x45, 0x4c, 0x46], header[4] == 2,
            header[5] == 1
        else { return nil }
        let programHeaders = UInt64(littleEndian: header, at: 32)
        let entrySize = Int(UInt16(littleEndian: header, at: 54))
        let entries = Int(UInt16(littleEndian: header, at: 56))
        guard entrySize >= 56, entries < 4096 else { return nil }
        for index in 0..<entries {
            let (at, overflow) = programHeaders.addingReportingOverflow(UInt64(index * entrySize))
            guard !overflow, let entry = bytes(at: at, count: 56) else { return nil }
            // PT_NOTE, of a size notes have.
            guard UInt32(littleEndian: entry, at: 0) == 4 else { continue }
            let (offset, size) = (UInt64(littleEndian: entry, at: 8), UInt64(littleEndian: entry, at: 32))
            guard size <= 1 << 16, let notes = bytes(at: offset, count: Int(size)) else { continue }
            if let id = buildID(in: notes) { return id }
        }
        return nil
    }

    /// The descriptor of the `NT_GNU_BUILD_ID` note named "GNU" among `notes`, as hex.
    private static func buildID(in notes: [UInt8]) -> String? {
        var at = 0
        let aligned = { (size: Int) in (size + 3) & ~3 }
        while at + 12 <= notes.count {
            let nameSize = Int(UInt32(littleEndian: notes, at: at))
            let descriptorSize = Int(UInt32(littleEndian: notes, at: at + 4))
            let type = UInt32(littleEndian: notes, at: at + 8)
            let name = at + 12
            let descriptor = name + aligned(nameSize)
            let next = descriptor + aligned(descriptorSize)
            guard nameSize >= 0, descriptorSize >= 0, next <= notes.count else { return nil }
            if type == 3, nameSize == 4, notes[name..<name + 4] == [0x47, 0x4e, 0x55, 0], descriptorSize > 0 {
                return notes[descriptor..<descriptor + descriptorSize].map { byte in
                    let digits = Array("0123456789abcdef")
                    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
                }.joined()
            }
            at = next
        }
        return nil
    }
}

extension FixedWidthInteger {
    /// The little-endian integer at `offset` of `bytes`.
    fileprivate init(littleEndian bytes: [UInt8], at offset: Int) {
        var value = Self.zero
        for index in 0..<(Self.bitWidth / 8) { value |= Self(bytes[offset + index]) << (8 * index) }
        self = value
    }
}
