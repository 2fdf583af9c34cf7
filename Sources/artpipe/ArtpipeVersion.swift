import KafkaClient
import ThumbWorker

/// artpipe's version, in `--version` and the User-Agent.
enum ArtpipeVersion {
    static let current = "0.5.0"

    /// What `--version` prints: artpipe's version and the C libraries this process loaded.
    static var description: String {
        "artpipe \(current) (librdkafka \(KafkaLibraryVersion.description), libvips \(Thumbnailer.libvipsVersion))"
    }
}
