import ArtpipeSupport
import Foundation
import Testing

@Suite("Which build a process runs")
struct BuildIdentityTests {
    @Test("this process's build id is the linker's, as readelf shows it; a file that is no program has none")
    func buildID() throws {
        let id = try #require(BuildIdentity.current)
        #expect(id.count >= 16 && id.allSatisfy(\.isHexDigit), "\(id)")
        #expect(BuildIdentity.read(program: "/proc/self/exe") == id)
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        // The program's own path: `/proc/self/exe` would be readelf's.
        readelf.arguments = ["-n", try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")]
        let pipe = Pipe()
        readelf.standardOutput = pipe
        try readelf.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        #expect(text.contains("Build ID: \(id)"), "\(text)")

        let other = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-program-\(UUID())")
        defer { try? FileManager.default.removeItem(at: other) }
        try Data("#!/bin/sh\necho\n".utf8).write(to: other)
        #expect(BuildIdentity.read(program: other.path) == nil)
        // An ELF header whose program headers lie past any file: nil, not a trap.
        var header = [UInt8](repeating: 0, count: 64)
        header.replaceSubrange(0..<6, with: [0x7f, 0x45, 0x4c, 0x46, 2, 1])
        for byte in 0..<8 { header[32 + byte] = byte == 7 ? 0xff : 0xfe }
        (header[54], header[56]) = (56, 3)
        try Data(header).write(to: other)
        #expect(BuildIdentity.read(program: other.path) == nil)
        // The program cut short after its header: nil.
        let program = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/exe"), options: .alwaysMapped)
        try program.prefix(100).write(to: other)
        #expect(BuildIdentity.read(program: other.path) == nil)
        #expect(BuildIdentity.read(program: "/nonexistent/program") == nil)
    }
}
