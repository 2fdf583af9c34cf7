import Foundation

/// The recorded API responses under `Fixtures/` (provenance in its SOURCES.md), shared by
/// every test target.
package enum RecordedFixture {
    /// The bytes of `Fixtures/<name>.<fileExtension>`.
    package static func bytes(_ name: String, fileExtension: String = "json") throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: fileExtension) else {
            throw MissingFixture(name: "\(name).\(fileExtension)")
        }
        return Array(try Data(contentsOf: url))
    }
}
