import Hummingbird
import Logging
import NIOPosix

/// Local stand-ins for the services artpipe reads, all serving one ``SampleCollection``: the
/// museum's legacy collection API, its Search API with Linked Art, its OAI-PMH endpoint,
/// Flickr, iTunes, and the images their answers point to.
///
/// Each service is a route collection beside its answer type (``LegacyCollectionRoutes``,
/// ``LinkedArtRoutes``, ``OAIRoutes``, ``FlickrRoutes``, ``ITunesRoutes``,
/// ``SampleImageRoutes``); the faults of the APIs are one middleware in front of them
/// (``SampleAPIFaultMiddleware``), the latency another.
package final class SampleCollectionServer: Sendable {
    /// Records on each OAI-PMH page, as the real endpoint's (about 200).
    package static let oaiPageSize = OAIAnswer.pageSize
    /// The owner NSID of photos whose maker is empty, in the Flickr stand-in's answers.
    package static let flickrNamelessOwner = FlickrAnswer.nameless
    /// Results the Flickr stand-in serves of one search, as Flickr does.
    package static let flickrReach = FlickrRoutes.reach
    /// API arrival times kept, for tests: a long-running server must not grow with its requests.
    static let arrivalsKept = SampleAPIFaultMiddleware.arrivalsKept

    package var collection: SampleCollection { state.collection }
    var faults: SampleServerFaults { state.faults }
    private let state: SampleServerState
    private let apiFaults: SampleAPIFaultMiddleware
    private let oai: OAIRoutes
    private let images: SampleImageRoutes
    private let documents: LinkedArtDocuments

    /// - Parameter threadPool: makes the images (libvips blocks).
    /// - Parameter revision: the revision OAI-PMH serves from the start; its changes are dated a day apart.
    package init(collection: SampleCollection, faults: SampleServerFaults, threadPool: NIOThreadPool, revision: Int = 0)
    {
        state = SampleServerState(collection: collection, faults: faults)
        apiFaults = SampleAPIFaultMiddleware(faults: faults)
        oai = OAIRoutes(state: state, revision: revision)
        images = SampleImageRoutes(state: state, pool: threadPool)
        documents = LinkedArtDocuments(collection: collection)
    }

    /// The revision OAI-PMH serves (0: the collection as made).
    package var revision: Int { oai.revision }

    /// Moves to a later revision now: its changes and deletions are dated this second.
    package func advance(to revision: Int) {
        oai.advance(to: revision)
    }

    /// Starts (or changes) an outage of the API, or ends it with nil.
    package func setOutage(_ outage: SampleAPIOutage?) {
        apiFaults.setOutage(outage)
    }

    /// When each API request arrived, in order (images not included; the first 10,000).
    package var apiRequestArrivals: [ContinuousClock.Instant] { apiFaults.arrivals }

    /// Requests answered so far, for logs.
    package var requestsServed: Int { state.requestCount.load(ordering: .relaxed) }

    /// Image requests answered so far.
    package var imageRequestsServed: Int { state.imageRequestCount.load(ordering: .relaxed) }

    /// Serves on `host:port` (0: any free port) until cancelled or graceful shutdown;
    /// `onListening` gets the bound port.
    package func run(
        host: String = "127.0.0.1", port: Int, logger: Logger, onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        let router = Router()
        let latency = SampleLatencyMiddleware(latency: faults.latency)
        router.group().add(middleware: apiFaults).add(middleware: latency)
            .addRoutes(LegacyCollectionRoutes(state: state).routes)
            .addRoutes(LinkedArtRoutes(state: state, documents: documents).routes)
            .addRoutes(FlickrRoutes(state: state).routes)
            .addRoutes(ITunesRoutes(state: state).routes)
        router.group().add(middleware: apiFaults).addRoutes(oai.routes)
        // Images are another host: the APIs' faults do not reach them.
        router.group().add(middleware: latency).addRoutes(images.routes)
        router.get("/healthz") { _, _ in "ok\n" }
        let application = Application(
            router: router, configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) }, logger: logger)
        try await application.runService(gracefulShutdownSignals: [])
    }
}
