import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// OAI-PMH with EDM records, for the rijksmuseum-oai source, as the museum's server (very
/// likely oai-repo) answers it: `Identify`, `ListIdentifiers` and `ListRecords` in identifier
/// order, not datestamp order. A token is refused when the list it was handed out for is
/// smaller now (a record left the window), when it is older than
/// ``SampleServerFaults/oaiTokenLifetime``, and for the resumption requests
/// ``SampleServerFaults/oaiRefusedTokenRequests`` names.
final class OAIRoutes: Sendable {
    private let state: SampleServerState
    /// Requests that carried a resumption token, for ``SampleServerFaults/oaiRefusedTokenRequests``.
    private let tokenRequests = Atomic<Int>(0)
    /// When each revision after 0 happened: revision N's changes carry `revisionTimes[N - 1]`.
    private let revisionTimes: Mutex<[Date]>
    /// The list of the current revision, made once per revision.
    private let entries = Mutex<(revision: Int, entries: [OAIAnswer.Entry])?>(nil)
    /// The last window's entries, by revision, `from` and `until`.
    private let lastWindow = Mutex<(key: String, entries: [OAIAnswer.Entry])?>(nil)

    /// - Parameter revision: the revision to serve from the start; its changes are dated a day apart.
    init(state: SampleServerState, revision: Int) {
        self.state = state
        revisionTimes = Mutex(
            (0..<max(revision, 0)).map { OAIAnswer.firstDatestamp.addingTimeInterval(Double($0 + 1) * 86_400) })
    }

    /// The revision served (0: the collection as made).
    var revision: Int { revisionTimes.withLock { $0.count } }

    /// Moves to a later revision now: its changes and deletions are dated this second.
    func advance(to revision: Int) {
        let now = Date()
        revisionTimes.withLock { times in
            while times.count < revision { times.append(now) }
        }
    }

    var routes: RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)
        routes.get("/oai") { request, _ in self.page(request) }
        return routes
    }

    private func page(_ request: Request) -> Response {
        state.requestCount.add(1, ordering: .relaxed)
        let faults = state.faults
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
            let number = tokenRequests.wrappingAdd(1, ordering: .relaxed).oldValue + 1
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
        if let cached = entries.withLock({ $0 }), cached.revision == times.count { return cached }
        let made = OAIAnswer.entries(state.collection, revisionTimes: times)
        entries.withLock { $0 = (times.count, made) }
        return (times.count, made)
    }
}
