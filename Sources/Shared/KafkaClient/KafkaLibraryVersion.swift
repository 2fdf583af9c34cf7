/// The librdkafka this process loaded (not the one it was built against): what decides
/// which upstream bugs it has to work around.
package enum KafkaLibraryVersion {
    /// As librdkafka prints it, for example "2.8.0".
    package static var description: String { RDKafkaLibrary.versionString }

    /// As librdkafka encodes it: 0xMMmmrrxx (major, minor, revision, pre-release).
    package static var number: Int32 { RDKafkaLibrary.versionNumber }

    /// Whether the loaded librdkafka is at least `major.minor`.
    package static func isAtLeast(_ major: Int32, _ minor: Int32) -> Bool {
        number >= (major << 24 | minor << 16)
    }
}
