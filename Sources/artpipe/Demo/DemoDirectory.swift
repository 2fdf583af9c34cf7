import ArtpipeSupport
import Foundation

/// The demo's output directory: emptied when an earlier demo made it, refused otherwise, so
/// a demo never deletes files it did not write.
enum DemoDirectory {
    static let marker = ".artpipe-demo"

    static func prepare(_ directory: URL) throws {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ConfigurationError("--out \(directory.path) is a file, not a directory")
            }
            let entries = try files.contentsOfDirectory(atPath: directory.path)
            if !entries.isEmpty {
                guard entries.contains(marker) else {
                    throw ConfigurationError(
                        "--out \(directory.path) is not empty and was not made by artpipe demo; choose another directory"
                    )
                }
                // A new broker starts its offsets at 0: state from an earlier run would not match it.
                for entry in entries {
                    try files.removeItem(at: directory.appendingPathComponent(entry))
                }
            }
        }
        try files.createDirectory(at: directory.appendingPathComponent("logs"), withIntermediateDirectories: true)
        try files.createDirectory(at: directory.appendingPathComponent(".demo"), withIntermediateDirectories: true)
        try Data("made by artpipe demo; emptied by the next one\n".utf8).write(
            to: directory.appendingPathComponent(marker))
    }
}
