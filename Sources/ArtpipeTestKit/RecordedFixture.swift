import Foundation

/// The recorded API responses under `Fixtures/` (provenance in its SOURCES.md), shared by
/// every test target.
public enum RecordedFixture {
    /// The bytes of `Fixtures/<name>.<fileExtension>`.
    public static func bytes(_ name: String, fileExtension: String = "json") throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: fileExtension) else {
            throw MissingFixture(name: "\(name).\(fileExtension)")
        }
        return Array(try Data(contentsOf: url))
    }
}

/// A fixture the test asked for is not among the recorded ones.
public struct MissingFixture: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "no recorded fixture \(name)" }
}
