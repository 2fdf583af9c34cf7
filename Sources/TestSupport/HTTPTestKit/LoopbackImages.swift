import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import HTTPFetching
import PipelineContract
import ThumbWorker

/// Images served over loopback HTTP, and a ThumbWorker handler that downloads them into an
/// output folder of its own: what the thumbnail tests start from.
package struct LoopbackImages: Sendable {
    package let server: TestHTTPServer
    let downloader: HTTPFetcher
    let configuration: Thumbnailer.Configuration
    package let output: URL
    package let handler: PageThumbnailHandler

    /// Serves `images` by path (404 for any other) with `Content-Type: image/jpeg`.
    /// - Parameter imageHosts: the hosts allowed for every page, and the sources whose pages may
    ///   reach any host (`sourcesNamingImageHosts`).
    package static func start(
        _ images: [String: [UInt8]], sizes: [Int], formats: Set<ThumbnailFormat> = [.jpeg], label: String,
        download: HTTPFetcherConfiguration = .init(), imageConcurrency: Int = 1,
        imageHosts: (allowed: [String], sourcesNaming: Set<String>) = (["127.0.0.1"], [])
    ) async throws -> LoopbackImages {
        try await start(
            sizes: sizes, formats: formats, label: label, download: download, imageConcurrency: imageConcurrency,
            imageHosts: imageHosts
        ) {
            images[$0.path].map { .init(headers: [("Content-Type", "image/jpeg")], body: $0) } ?? .init(status: 404)
        }
    }

    /// Answers every request with `respond`.
    package static func start(
        sizes: [Int], formats: Set<ThumbnailFormat> = [.jpeg], label: String,
        download: HTTPFetcherConfiguration = .init(),
        imageConcurrency: Int = 1, imageHosts: (allowed: [String], sourcesNaming: Set<String>) = (["127.0.0.1"], []),
        respond: @escaping @Sendable (TestHTTPServer.Request) async -> TestHTTPServer.Response
    ) async throws -> LoopbackImages {
        let server = try await TestHTTPServer.start(respond)
        var configuration = Thumbnailer.Configuration()
        configuration.sizes = sizes
        configuration.formats = formats
        let downloader = HTTPFetcher(configuration: download, redaction: SecretRedaction(secrets: []), logger: .test)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make(label))
        let handler = PageThumbnailHandler(
            thumbnailer: try Thumbnailer(configuration: configuration, threadPool: .singleton),
            store: ThumbnailStore(outputDirectory: output, configuration: configuration), downloader: downloader,
            policy: HostPolicy(allowedHosts: imageHosts.allowed, allowPrivateAddresses: true),
            sourcesNamingImageHosts: imageHosts.sourcesNaming, imageConcurrency: imageConcurrency,
            threadPool: .singleton)
        return LoopbackImages(
            server: server, downloader: downloader, configuration: configuration, output: output, handler: handler)
    }

    /// A store on the same folder and settings, to look at what the handler left.
    package var store: ThumbnailStore { ThumbnailStore(outputDirectory: output, configuration: configuration) }

    /// An artwork whose image is `path` on the server.
    package func artwork(_ objectNumber: String, _ path: String, position: Int = 0) -> Artwork {
        Artwork(
            objectNumber: objectNumber, title: "t", artist: "a", imageURL: "\(server.baseURL)\(path)", width: nil,
            height: nil, position: position)
    }

    package func stop() async {
        try? await downloader.shutdown()
        await server.stop()
    }
}
