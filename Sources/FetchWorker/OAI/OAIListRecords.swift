import PipelineContract

/// One `ListRecords` answer: its records, and where the list goes on.
struct OAIListRecords: Sendable, Equatable {
    var records: [OAIRecord]
    /// The token of the next page; nil on the last page (the token element is empty or absent).
    var resumptionToken: String?
    /// The list's size, when the server says (`completeListSize`).
    var completeListSize: Int?
    /// The server's clock at the answer (`responseDate`): where the next incremental harvest starts.
    var responseDate: String?
    /// Records that were in the answer but could not be read, with the reason.
    var unreadable: [Unreadable]

    struct Unreadable: Error, Sendable, Equatable {
        var identifier: String
        var reason: String
        /// The record as the server sent it, when it could not be parsed at all.
        var bytes: [UInt8]? = nil
    }
}

/// An OAI-PMH `error` element, by its code (`badResumptionToken`, `noRecordsMatch`…).
struct OAIError: Error, CustomStringConvertible, Equatable {
    var code: String
    var message: String

    var description: String { "OAI-PMH error \(code): \(message)" }
}

/// One record of a harvest: a work's current description, or its deletion.
struct OAIRecord: Sendable, Equatable {
    /// The header's `identifier`: the record's stable id at the source.
    var identifier: String
    /// The header's `datestamp` (UTC, `YYYY-MM-DDThh:mm:ssZ`).
    var datestamp: String
    /// `status="deleted"` in the header: the work is gone.
    var deleted: Bool
    var objectNumber: String = ""
    var title: String = ""
    /// The creator's name in the language asked for, or empty.
    var creator: String = ""
    var imageURL: String?
    /// The work's date as the record writes it.
    var date: String?
    /// The years the record gives for the work: from its own fields where it has them (LIDO's
    /// earliest and latest dates), else read from ``date``.
    var years: YearRange?
    /// The record's page at the repository, for a visitor.
    var landingPage: String?
    /// The rights statement: a URI as written, else the record's own words.
    var rights: String?
    var iiifManifest: String?
    /// The IIIF Image API service of ``imageURL``.
    var iiifImageService: String?
}
