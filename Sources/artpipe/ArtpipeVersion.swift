import Foundation
import KafkaClient
import ThumbWorker

/// artpipe's version, in `--version` and the User-Agent.
enum ArtpipeVersion {
    static let current = "0.7.0"

    /// `artpipe/<version>`, with the operator's contact (`--contact` or `ARTPIPE_CONTACT`) when
    /// given: the museum asks harvesters, and its image server everyone, to say who they are.
    static func userAgent(contact: String?, environment: [String: String]) -> String {
        let contact = (contact ?? environment["ARTPIPE_CONTACT"])?.trimmingCharacters(in: .whitespacesAndNewlines)
        let product = "artpipe/\(current)"
        guard let contact, !contact.isEmpty else { return product }
        return product + " (+\(contact.filter { !$0.isNewline && $0 != ")" }))"
    }

    /// What `--version` prints: artpipe's version and the C libraries this process loaded.
    static var description: String {
        "artpipe \(current) (librdkafka \(KafkaLibraryVersion.description), libvips \(Thumbnailer.libvipsVersion))"
    }
}
