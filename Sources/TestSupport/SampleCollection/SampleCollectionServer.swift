import ArtpipeSupport
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import SampleImages
import Synchronization

/// A local stand-in for the museum's legacy collection API, serving ``SampleCollection``:
/// `GET /api/{culture}/collection?p=&ps=&s=artist` and the images its answers point to.
///
/// Collection answers shuffle the works of one artist within a page on every request, as the
/// real API's artist sort does. Images are JPEGs made with libvips on the pool it is given.
package final class SampleCollectionServer: Sendable {
    /// Records on each OAI-PMH page, as the real endpoint's (about 200).
    package static let oaiPageSize = OAIAnswer.pageSize
    /// The owner NSID of photos whose maker is empty, in the Flickr stand-in's answers.
    package static let flickrNamelessOwner = FlickrAnswer.nameless
    /// Results the Flickr stand-in serves of one search, as Flickr does.
    package static let flickrReach = 4_000

    package let collection: SampleCollection
    package let faults: SampleServerFaults
    private let images: NIOThreadPool
    private let attempts = Mutex<[String: Int]>([:])
    /// JPEGs by (width, height, tint): each is made once.
    private let madeImages = Mutex<[[Int]: [UInt8]]>([:])
    private let requestCount = Atomic<Int>(0)
    /// OAI-PMH requests that carried a resumption token, for ``SampleServerFaults/oaiRefusedTokenRequests``.
    private let oaiTokenRequests = Atomic<Int>(0)
    /// When each revision after 0 happened: revision N's changes carry `revisionTimes[N - 1]`.
    private let revisionTimes: Mutex<[Date]>
    /// The OAI-PMH list of the current revision, made once per revision.
    private let oaiEntries = Mutex<(revision: Int, entries: [OAIAnswer.Entry])?>(nil)
    /// The last window's entries, by revision, `from` and `until`.
    private let lastWindow = Mutex<(key: String, entries: [OAIAnswer.Entry])?>(nil)

    /// The revision OAI-PMH serves (0: the collection as made).
    package var revision: Int { revisionTimes.withLock { $0.count } }

    /// Moves to a later revision now: its changes and deletions are dated this second.
    package func advance(to revision: Int) {
        let now = Date()
        revisionTimes.withLock { times in
            while times.count < revision { times.append(now) }
        }
    }
    private let imageRequestCount = Atomic<Int>(0)
    /// The API's outage now, and when each API request arrived.
    private let apiState = Mutex<(outage: SampleAPIOutage?, count: Int, arrivals: [ContinuousClock.Instant])>(
        (nil, 0, []))
    /// Arrival times kept, for tests: a long-running server must not grow with its requests.
    static let arrivalsKept = 10_000
    private let documents: LinkedArtDocuments

    /// - Parameter threadPool: makes the images (libvips blocks).
    /// - Parameter revision: the revision to serve from the start; its changes are dated a day apart.
    package init(collection: SampleCollection, faults: SampleServerFaults, threadPool: NIOThreadPool, revision: Int = 0)
    {
        revisionTimes = Mutex(
            (0..<max(revision, 0)).map { OAIAnswer.firstDatestamp.addingTimeInterval(Double($0 + 1) * 86_400) })
        self.collection = collection
        self.faults = faults
        documents = LinkedArtDocuments(collection: collection)
        images = threadPool
    }

    /// Starts (or changes) an outage of the API, or ends it with nil.
    package func setOutage(_ outage: SampleAPIOutage?) {
        apiState.withLock { $0.outage = outage }
    }

    /// When each API request arrived, in order (images not included; the first 10,000).
    package var apiRequestArrivals: [ContinuousClock.Instant] { apiState.withLock { $0.arrivals } }

    /// The answer of a fault in force for this API request, if one is.
    private func apiFault() -> Response? {
        let (number, outage) = apiState.withLock { state in
            state.count += 1
            if state.arrivals.count < Self.arrivalsKept { state.arrivals.append(.now) }
            if let after = faults.outageAfterAPIRequests, state.count == after + 1 {
                state.outage = .unavailable
            }
            return (state.count, state.outage)
        }
        switch outage {
        case .unavailable:
            return Self.html(.serviceUnavailable, "<html><body><h1>503 Service Unavailable</h1></body></html>")
        case .maintenancePage:
            return Self.html(.ok, "<!DOCTYPE html><html><body><h1>Down for maintenance</h1></body></html>")
        case nil:
            break
        }
        if faults.rateLimitedAPIRequests.contains(number) {
            return Response(
                status: .tooManyRequests,
                headers: [.retryAfter: String(faults.rateLimitRetryAfter), .contentType: "text/plain"],
                body: .init(byteBuffer: ByteBuffer(string: "slow down")))
        }
        return nil
    }

    /// Requests answered so far, for logs.
    package var requestsServed: Int { requestCount.load(ordering: .relaxed) }

    /// Image requests answered so far.
    package var imageRequestsServed: Int { imageRequestCount.load(ordering: .relaxed) }

    /// Serves on `host:port` (0: any free port) until cancelled or graceful shutdown;
    /// `onListening` gets the bound port.
    package func run(
        host: String = "127.0.0.1", port: Int, logger: Logger, onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        let router = Router()
        router.get("/api/:culture/collection") { request, context in
            if let fault = self.apiFault() { return fault }
            return try await self.collectionPage(request, context: context)
        }
        router.get("/images/:file") { request, context in
            try await self.image(context.parameters.require("file"), context: context)
        }
        // The Search API and Linked Art, for the rijksmuseum-search source (--base-url stands in
        // for data.rijksmuseum.nl and id.rijksmuseum.nl alike).
        router.get("/search/collection") { request, _ in
            if let fault = self.apiFault() { return fault }
            let unknown = Set(request.uri.queryParameters.map { String($0.key) })
                .subtracting(LinkedArtDocuments.searchParameters)
            guard unknown.isEmpty else {
                return Self.text(.badRequest, "unknown parameter \(unknown.sorted().joined(separator: ", "))")
            }
            let page = Int(request.uri.queryParameters.get("pageToken") ?? "1") ?? 0
            guard page >= 1 else { return Self.text(.badRequest, "bad pageToken") }
            return try await self.linkedArt(self.documents.searchPage(page))
        }
        router.get("/sample/:kind/:number") { request, context in
            if let fault = self.apiFault() { return fault }
            let number = Int(try context.parameters.require("number")) ?? -1
            let base = "http://\(request.head.authority ?? "127.0.0.1")"
            // The data host's default profile is not Linked Art: it must be asked for.
            let linkedArt =
                request.headers[.init("Accept-Profile")!]?.contains("linked.art") == true
                || request.uri.queryParameters.get("_profile") == "la"
            let document: [String: Any]? =
                switch try context.parameters.require("kind") {
                case "object" where !linkedArt: self.documents.schemaOrgObject(number)
                case "object": self.documents.object(number)
                case "agent": self.documents.agent(number)
                case "visual": self.documents.visualItem(number)
                case "digital": self.documents.digitalObject(number, imageBase: base)
                default: nil
                }
            guard let document else { return Self.text(.notFound, "no such id") }
            return try await self.linkedArt(document)
        }
        router.get("/iiif/:id/full/:size/:rotation/:file") { _, context in
            try await self.image("\(try context.parameters.require("id")).jpg", context: context)
        }
        // OAI-PMH with EDM records, for the rijksmuseum-oai source.
        router.get("/oai") { request, _ in
            self.apiFault() ?? self.oaiPage(request)
        }
        // Flickr's REST endpoint (photos.search only; the router matches it with or without the
        // trailing slash) and the iTunes Search API.
        router.get("/services/rest") { request, _ in
            if let fault = self.apiFault() { return fault }
            return try await self.flickrPage(request)
        }
        router.get("/search") { request, _ in
            if let fault = self.apiFault() { return fault }
            return try await self.itunesSearch(request)
        }
        router.get("/itunes-art/:id/:file") { _, context in
            try await self.image("\(try context.parameters.require("id")).jpg", context: context)
        }
        router.get("/healthz") { _, _ in "ok\n" }
        let application = Application(
            router: router, configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) }, logger: logger)
        try await application.runService(gracefulShutdownSignals: [])
    }

    private func collectionPage(_ request: Request, context: some RequestContext) async throws -> Response {
        let served = requestCount.wrappingAdd(1, ordering: .relaxed).oldValue
        if faults.latency > .zero { try await Task.sleep(for: faults.latency) }
        let query = FormQuery.dictionary(request.uri.query)
        guard let page = Int(query["p"] ?? "1"), let size = Int(query["ps"] ?? "10"), page >= 1,
            (1...100).contains(size)
        else {
            return Self.text(.badRequest, "p must be at least 1 and ps 1–100")
        }
        guard page * size <= 10_000 else {
            return Self.text(.badRequest, "p × ps must not exceed 10,000")
        }
        if let status = faults.rejectedPages[page] {
            return Self.text(.init(code: status), "page \(page) is configured to answer \(status)")
        }
        if faults.failingPages.contains(page) {
            return Self.text(.internalServerError, "page \(page) is configured to fail")
        }
        let key = "collection?p=\(page)&ps=\(size)"
        let attempt = attempts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
        if attempt <= faults.failFirst {
            return attempt % 2 == 1
                ? Self.text(.serviceUnavailable, "try again")
                : Response(
                    status: .tooManyRequests, headers: [.retryAfter: "1", .contentType: "text/plain"],
                    body: .init(byteBuffer: ByteBuffer(string: "slow down")))
        }
        let listing = listing(page: page, size: size, shuffleSeed: UInt64(served))
        let base = "http://\(request.head.authority ?? "127.0.0.1")"
        let body = LegacyAnswer(
            count: collection.count, artObjects: listing.map { LegacyAnswer.Object($0, imageBase: base) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
    }

    /// The page as the API would list it for `ps = size`, with each artist's works shuffled.
    func listing(page: Int, size: Int, shuffleSeed: UInt64) -> [SampleWork] {
        var listing: [SampleWork]
        if size == collection.configuration.pageSize {
            listing = page <= collection.pages.count ? collection.pages[page - 1] : []
        } else {
            // Another page size: the same order, cut differently.
            let all = collection.pages.flatMap { $0 }
            listing = Array(all.dropFirst((page - 1) * size).prefix(size))
        }
        var random = SampleRandom(seed: shuffleSeed &* 0x2545_F491_4F6C_DD1D)
        var start = 0
        while start < listing.count {
            var end = start + 1
            while end < listing.count, listing[end].maker == listing[start].maker { end += 1 }
            if end - start > 1 {
                for index in stride(from: end - 1, to: start, by: -1) {
                    listing.swapAt(index, random.int(in: start...index))
                }
            }
            start = end
        }
        return listing
    }

    private func image(_ file: String, context: some RequestContext) async throws -> Response {
        requestCount.wrappingAdd(1, ordering: .relaxed)
        imageRequestCount.wrappingAdd(1, ordering: .relaxed)
        if faults.latency > .zero { try await Task.sleep(for: faults.latency) }
        guard file.hasSuffix(".jpg"), let id = Int(file.dropLast(4)), let work = collection.work(id: id),
            let image = work.image
        else {
            return Self.text(.notFound, "no such image")
        }
        if faults.imageFailFirst > 0 {
            let attempt = attempts.withLock { counts in
                counts[file, default: 0] += 1
                return counts[file]!
            }
            if attempt <= faults.imageFailFirst { return Self.text(.serviceUnavailable, "try again") }
        }
        let headers: HTTPFields = [.contentType: "image/jpeg", .cacheControl: "public, max-age=86400"]
        switch image {
        case .notAnImage:
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "<html><body>Image temporarily unavailable</body></html>")))
        case .jpeg(let width, let height):
            let bytes = try await jpeg(width: width, height: height, tint: id % 5)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        case .truncated(let width, let height):
            let bytes = try await jpeg(width: width, height: height, tint: id % 5)
            return Response(
                status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes.prefix(bytes.count / 3)))
            )
        }
    }

    /// `flickr.photos.search` over the legacy listings (which overlap), `min_upload_date` and
    /// `max_upload_date` (Unix seconds) honoured, with Flickr's `stat: fail`
    /// answers: code 112 for another method, 100 for a missing key or the key `invalid`, and
    /// 105 (status 200) for the first ``SampleServerFaults/failFirst`` attempts at each page.
    private func flickrPage(_ request: Request) async throws -> Response {
        requestCount.wrappingAdd(1, ordering: .relaxed)
        if faults.latency > .zero { try await Task.sleep(for: faults.latency) }
        let query = FormQuery.dictionary(request.uri.query)
        let method = query["method"].map { String($0) } ?? ""
        guard method == "flickr.photos.search" else {
            return try json(FlickrAnswer.failure(code: 112, message: "Method \"\(method)\" not found"))
        }
        guard let key = query["api_key"], !key.isEmpty, key != "invalid" else {
            return try json(FlickrAnswer.failure(code: 100, message: "Invalid API Key (Key has invalid format)"))
        }
        // Flickr clamps what it is asked for rather than refusing it.
        let perPage = min(max(Int(query["per_page"] ?? "100") ?? 100, 1), 500)
        let page = max(Int(query["page"] ?? "1") ?? 1, 1)
        let attempt = attempts.withLock { counts in
            counts["flickr?page=\(page)&per_page=\(perPage)", default: 0] += 1
            return counts["flickr?page=\(page)&per_page=\(perPage)"]!
        }
        if attempt <= faults.failFirst {
            return try json(FlickrAnswer.failure(code: 105, message: "Service currently unavailable"))
        }
        // Uploaded in id order, a minute apart; both ends of the window inclusive, as Flickr reads them.
        let minimum = query["min_upload_date"].flatMap { Int($0) } ?? Int.min
        let maximum = query["max_upload_date"].flatMap { Int($0) } ?? Int.max
        let matching = collection.pages.joined().filter { (minimum...maximum).contains(FlickrAnswer.uploaded($0)) }
        let listing =
            page * perPage <= Self.flickrReach ? Array(matching.dropFirst((page - 1) * perPage).prefix(perPage)) : []
        let extras = Set((query["extras"] ?? "").split(separator: ",").map(String.init))
        return try json(
            FlickrAnswer.page(
                listing, page: page, perPage: perPage, total: matching.count, extras: extras,
                imageBase: "http://\(request.head.authority ?? "127.0.0.1")"))
    }

    /// The iTunes Search API over the distinct works: `term` required, `limit` up to 200,
    /// `offset` honoured; blank lines around the JSON, as Apple's servers send it.
    private func itunesSearch(_ request: Request) async throws -> Response {
        requestCount.wrappingAdd(1, ordering: .relaxed)
        if faults.latency > .zero { try await Task.sleep(for: faults.latency) }
        let query = FormQuery.dictionary(request.uri.query)
        guard let term = query["term"], !term.isEmpty else {
            var parameters: [String: String] = [:]
            for (name, value) in query { parameters[String(name)] = String(value) }
            return try json(ITunesAnswer.missingTerm(parameters), status: .badRequest)
        }
        let limit = min(max(Int(query["limit"] ?? "50") ?? 50, 1), 200)
        let offset = max(Int(query["offset"] ?? "0") ?? 0, 0)
        let body = try JSONSerialization.data(
            withJSONObject: ITunesAnswer.results(
                collection.works.dropFirst(offset).prefix(limit),
                imageBase: "http://\(request.head.authority ?? "127.0.0.1")"),
            options: [.sortedKeys, .withoutEscapingSlashes])
        var framed = ByteBuffer(string: ITunesAnswer.framing)
        framed.writeBytes(body)
        framed.writeString(ITunesAnswer.framing)
        return Response(
            status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"], body: .init(byteBuffer: framed))
    }

    private func json(_ document: [String: Any], status: HTTPResponse.Status = .ok) throws -> Response {
        let body = try JSONSerialization.data(
            withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private func linkedArt(_ document: [String: Any]) async throws -> Response {
        requestCount.wrappingAdd(1, ordering: .relaxed)
        if faults.latency > .zero { try await Task.sleep(for: faults.latency) }
        let body = try JSONSerialization.data(
            withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(
            status: .ok, headers: [.contentType: "application/ld+json; charset=utf-8", .cacheControl: "max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private func jpeg(width: Int, height: Int, tint: Int) async throws -> [UInt8] {
        let key = [width, height, tint]
        if let made = madeImages.withLock({ $0[key] }) { return made }
        let bytes = try await images.runIfActive {
            try SampleImage.painting(width: width, height: height, seed: 1 + tint * 97, quality: 85)
        }
        madeImages.withLock { $0[key] = bytes }
        return bytes
    }

    /// OAI-PMH as the museum's server (very likely oai-repo) answers it: `Identify`,
    /// `ListIdentifiers` and `ListRecords` in identifier order, not datestamp order. A token is
    /// refused when the list it was handed out for is smaller now (a record left the window),
    /// when it is older than ``SampleServerFaults/oaiTokenLifetime``, and for the resumption
    /// requests ``SampleServerFaults/oaiRefusedTokenRequests`` names.
    private func oaiPage(_ request: Request) -> Response {
        requestCount.add(1, ordering: .relaxed)
        let query = FormQuery.dictionary(request.uri.query)
        let base = "http://\(request.head.authority ?? "127.0.0.1")"
        let now = Date()
        let verb = query["verb"] ?? ""
        func answer(_ body: String) -> Response {
            Response(
                status: .ok, headers: [.contentType: "text/xml; charset=utf-8"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: OAIAnswer.document(body, responseDate: now, verb: verb, request: "\(base)/oai"))))
        }
        let (revision, entries) = currentEntries()
        if verb == "Identify" {
            return answer(
                OAIAnswer.identify(
                    baseURL: "\(base)/oai", earliest: entries.map(\.datestamp).min() ?? OAIAnswer.format(now)))
        }
        guard verb == "ListRecords" || verb == "ListIdentifiers" else {
            return answer(OAIAnswer.error("badVerb", "this stand-in answers Identify, ListIdentifiers and ListRecords"))
        }
        let position: OAIAnswer.Position
        if let token = query["resumptionToken"] {
            let number = oaiTokenRequests.wrappingAdd(1, ordering: .relaxed).oldValue + 1
            guard let decoded = OAIAnswer.Position(token: token),
                Int64(now.timeIntervalSince1970 * 1_000) - decoded.issued <= faults.oaiTokenLifetime.milliseconds,
                !faults.oaiRefusedTokenRequests.contains(number)
            else {
                return answer(OAIAnswer.error("badResumptionToken", "the resumptionToken is invalid or expired"))
            }
            position = decoded
        } else {
            guard query["metadataPrefix"] == "edm" else {
                return answer(OAIAnswer.error("cannotDisseminateFormat", "edm is the only metadataPrefix"))
            }
            position = OAIAnswer.Position(offset: 0, from: query["from"], until: query["until"], issued: 0)
        }
        let matching = matchingEntries(entries, revision: revision, from: position.from, until: position.until)
        if position.offset > 0, matching.count < position.size {
            return answer(OAIAnswer.error("badResumptionToken", "Token is no longer valid as data has changed."))
        }
        guard !matching.isEmpty else {
            return answer(OAIAnswer.error("noRecordsMatch", "no records match the request"))
        }
        let page = Array(matching.dropFirst(position.offset).prefix(OAIAnswer.pageSize))
        let end = position.offset + page.count
        let next =
            end < matching.count
            ? OAIAnswer.Position(
                offset: end, from: position.from, until: position.until,
                issued: Int64(now.timeIntervalSince1970 * 1_000), size: matching.count) : nil
        return answer(
            OAIAnswer.list(
                page, verb: verb, position: position,
                completeListSize: faults.oaiListSizeHidden ? nil : matching.count, imageBase: base, next: next))
    }

    /// The entries of a window; the last window's are kept, since a harvest asks for one
    /// window page after page (a collection of a million works would be filtered per page).
    private func matchingEntries(_ entries: [OAIAnswer.Entry], revision: Int, from: String?, until: String?)
        -> [OAIAnswer.Entry]
    {
        // The revision the entries are of, not the server's now: it may move on meanwhile.
        let key = "\(revision)|\(from ?? "")|\(until ?? "")"
        if let kept = lastWindow.withLock({ $0 }), kept.key == key { return kept.entries }
        let matching = entries.filter { entry in
            (from.map { entry.datestamp >= $0 } ?? true) && (until.map { entry.datestamp <= $0 } ?? true)
        }
        lastWindow.withLock { $0 = (key, matching) }
        return matching
    }

    /// The list at the current revision, with that revision.
    private func currentEntries() -> (revision: Int, entries: [OAIAnswer.Entry]) {
        let times = revisionTimes.withLock { $0 }
        if let cached = oaiEntries.withLock({ $0 }), cached.revision == times.count { return cached }
        let entries = OAIAnswer.entries(collection, revisionTimes: times)
        oaiEntries.withLock { $0 = (times.count, entries) }
        return (times.count, entries)
    }

    private static func html(_ status: HTTPResponse.Status, _ page: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    private static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
