import Foundation

/// Where an OAI-PMH harvest stands, carried in `PageRequest.cursor`: the slice of the harvest's
/// window being listed, the resumption token within it, and what the harvest knows of itself.
///
/// A long harvest is cut by datestamp into slices small enough to list again: a server may
/// refuse a token when the list changed under it, and since records come in the server's order
/// (identifier order at the museum), only listing the slice again from its start is sure to
/// miss none of its records. Opaque to everyone but the source; every number is checked here.
struct OAIHarvestCursor: Equatable {
    /// The resumption token within the slice; nil at its start.
    var token: String?
    /// The last page the crawl wants; `Int.max` for all.
    var lastPage = Int.max
    /// Where each slice after the first starts (datestamps, ascending).
    var cuts: [String] = []
    /// The slice being listed: 0 up to `cuts.count`.
    var slice = 0
    /// The server's clock at the harvest's first answer.
    var started: String?
    /// Records listed on the harvest's pages before this one.
    var listed = 0
    /// What the harvest matched when it was planned, if the server said.
    var total: Int?
    /// Tokens refused in a row: a server whose list never holds still cannot be listed whole.
    var refusals = 0
    /// The metadata format chosen when the harvest was planned (`metadataPrefix`); nil in
    /// cursors of the museum's source, whose format is fixed.
    var format: String?
    /// The repository selects by day (`granularity=day`): windows are sent as days.
    var days = false

    init(token: String? = nil, lastPage: Int = .max, cuts: [String] = [], started: String? = nil, total: Int? = nil) {
        self.token = token
        self.lastPage = lastPage
        self.cuts = cuts
        self.started = started
        self.total = total
    }

    /// Reads a cursor; one whose numbers or datestamps are out of range is poison.
    init(_ text: String?) throws {
        let items = URLComponents(string: "?" + (text ?? ""))?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        func number(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw SourceFormatError("OAI-PMH cursor: \(name)=\(text) is not a number in \(range)")
            }
            return number
        }
        // `pageToken` is the name cursors had before harvests were cut into slices.
        token = value("token") ?? value("pageToken")
        lastPage = try number("last", in: 1...Int.max) ?? .max
        cuts = value("cuts").map { $0.split(separator: ",").map(String.init) } ?? []
        guard cuts.allSatisfy({ OAIDatestamp.date($0) != nil }), cuts == cuts.sorted(), Set(cuts).count == cuts.count
        else {
            throw SourceFormatError("OAI-PMH cursor: cuts are not ascending datestamps")
        }
        slice = try number("slice", in: 0...cuts.count) ?? 0
        started = value("started")
        if let started, OAIDatestamp.date(started) == nil {
            throw SourceFormatError("OAI-PMH cursor: started=\(started) is not a datestamp")
        }
        listed = try number("listed", in: 0...Int(Int32.max)) ?? 0
        total = try number("total", in: 0...Int(Int32.max))
        refusals = try number("refusals", in: 0...1_000) ?? 0
        format = value("format")
        days = value("granularity") == "day"
        if let format, format.isEmpty || format.utf8.count > 100 {
            throw SourceFormatError("OAI-PMH cursor: format=\(format) is not a metadata prefix")
        }
    }

    var text: String {
        var items: [URLQueryItem] = []
        if lastPage != .max { items.append(URLQueryItem(name: "last", value: String(lastPage))) }
        if let token { items.append(URLQueryItem(name: "token", value: token)) }
        if !cuts.isEmpty {
            items.append(URLQueryItem(name: "cuts", value: cuts.joined(separator: ",")))
            items.append(URLQueryItem(name: "slice", value: String(slice)))
        }
        if let started { items.append(URLQueryItem(name: "started", value: started)) }
        if listed > 0 { items.append(URLQueryItem(name: "listed", value: String(listed))) }
        if let total { items.append(URLQueryItem(name: "total", value: String(total))) }
        if refusals > 0 { items.append(URLQueryItem(name: "refusals", value: String(refusals))) }
        if let format { items.append(URLQueryItem(name: "format", value: format)) }
        if days { items.append(URLQueryItem(name: "granularity", value: "day")) }
        var components = URLComponents()
        components.setFormQuery(items)
        return components.percentEncodedQuery ?? ""
    }

    /// The query that lists the current slice: the harvest's window narrowed to the slice.
    func sliceQuery(_ query: [String: String]) -> [String: String] {
        var narrowed = query
        if slice > 0 { narrowed["from"] = cuts[slice - 1] }
        if slice < cuts.count { narrowed["until"] = OAIDatestamp.secondBefore(cuts[slice]) }
        return narrowed
    }
}
