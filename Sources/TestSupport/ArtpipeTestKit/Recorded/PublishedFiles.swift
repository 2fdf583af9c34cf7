import Foundation
import ObjectStorage

/// A published index as one comparable value: every file's path and bytes, by path.
package struct PublishedFiles: Equatable, Sendable, CustomStringConvertible {
    package let files: [String: [UInt8]]

    package init(_ files: [String: [UInt8]]) {
        self.files = files
    }

    /// The files at `paths` (relative to `directory`) as they are now; nil when one cannot be read.
    package init?(in directory: URL, paths: some Sequence<String>) {
        var files: [String: [UInt8]] = [:]
        for path in paths {
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(path)) else { return nil }
            files[path] = Array(data)
        }
        self.files = files
    }

    /// The objects at `paths` in a folder or a bucket; nil when one cannot be read. Blocks on
    /// the store: call it off the cooperative pool (``offCooperativePool(_:)``).
    package init?(in store: any OutputStore, paths: some Sequence<String>) {
        var files: [String: [UInt8]] = [:]
        for path in paths {
            guard let bytes = try? store.read(path) else { return nil }
            files[path] = bytes
        }
        self.files = files
    }

    /// The paths whose bytes differ, or that only one side has.
    package func differences(from other: PublishedFiles) -> [String] {
        Set(files.keys).union(other.files.keys).filter { files[$0] != other.files[$0] }.sorted()
    }

    /// The first file `paths` names that differs from `expected`'s, and where, by line; nil when
    /// every one is the same.
    package func firstDifference(from expected: PublishedFiles, among paths: [String]? = nil) -> String? {
        guard let path = (paths ?? differences(from: expected)).first(where: { files[$0] != expected.files[$0] })
        else { return nil }
        let (lines, expectedLines) = (
            lines(of: files[path]), lines(of: expected.files[path])
        )
        for index in 0..<max(lines.count, expectedLines.count) {
            let (line, expectedLine) = (
                index < lines.count ? lines[index] : "<end>",
                index < expectedLines.count ? expectedLines[index] : "<end>"
            )
            if line != expectedLine {
                return "\(path) line \(index + 1): got '\(line.prefix(600))', expected '\(expectedLine.prefix(600))'"
            }
        }
        return "\(path): same lines, different bytes"
    }

    private func lines(of bytes: [UInt8]?) -> [Substring] {
        (bytes.map { String(decoding: $0, as: UTF8.self) } ?? "<missing>")
            .split(separator: "\n", omittingEmptySubsequences: false)
    }

    package var description: String {
        "\(files.count) files, \(files.values.map(\.count).reduce(0, +)) bytes"
    }
}
