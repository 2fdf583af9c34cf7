/// artpipe's version, in `--version` and the User-Agent.
enum ArtpipeVersion {
    static let current = "0.5.0"
}
