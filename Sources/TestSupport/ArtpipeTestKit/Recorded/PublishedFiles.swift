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

    package var description: String {
        "\(files.count) files, \(files.values.map(\.count).reduce(0, +)) bytes"
    }
}
