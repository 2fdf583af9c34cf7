extension OAIResponseParser {
    /// How long a list is, from the first page of `ListIdentifiers`: what a harvest is planned by.
    struct ListSize: Equatable {
        /// The server's `completeListSize`, or the headers on the page when it is the only one;
        /// nil when the list goes on and the server does not say how far.
        var count: Int?
        /// Headers on this page.
        var listed: Int
        var responseDate: String?
        /// The next page's token, white space around it trimmed; nil on the last page.
        var resumptionToken: String? = nil
    }

    /// What `Identify` says of the repository.
    struct Repository: Equatable {
        var earliestDatestamp: String?
        var granularity: String?
        /// `no`, `transient` or `persistent`: whether the repository tells of deletions.
        var deletedRecord: String? = nil

        /// How finely it selects (an unknown answer is taken as seconds, the protocol's finest).
        var selection: OAIGranularity {
            granularity.flatMap(OAIGranularity.init(rawValue:)) ?? .seconds
        }
    }

    static func listSize(_ bytes: [UInt8]) throws -> ListSize {
        let (root, responseDate) = try envelope(bytes)
        if let error = root.child(OAINamespace.oai, "error") {
            let code = error.attribute("code") ?? "unknown"
            if code == "noRecordsMatch" { return ListSize(count: 0, listed: 0, responseDate: responseDate) }
            throw OAIError(code: code, message: error.text)
        }
        guard let list = root.child(OAINamespace.oai, "ListIdentifiers") else {
            throw SourceFormatError("the OAI-PMH answer has no ListIdentifiers")
        }
        let listed = list.children(OAINamespace.oai, "header").count
        let token = list.child(OAINamespace.oai, "resumptionToken")
        let complete = token?.attribute("completeListSize").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        let more = !(token?.text.isEmpty ?? true)
        return ListSize(
            count: complete ?? (more ? nil : listed), listed: listed, responseDate: responseDate,
            resumptionToken: more ? token?.text : nil)
    }

    static func repository(_ bytes: [UInt8]) throws -> Repository {
        let (root, _) = try envelope(bytes)
        if let error = root.child(OAINamespace.oai, "error") {
            throw OAIError(code: error.attribute("code") ?? "unknown", message: error.text)
        }
        guard let identify = root.child(OAINamespace.oai, "Identify") else {
            throw SourceFormatError("the OAI-PMH answer has no Identify")
        }
        return Repository(
            earliestDatestamp: identify.child(OAINamespace.oai, "earliestDatestamp")?.text,
            granularity: identify.child(OAINamespace.oai, "granularity")?.text,
            deletedRecord: identify.child(OAINamespace.oai, "deletedRecord")?.text)
    }
}

extension OAIResponseParser {
    /// The formats a repository offers (`ListMetadataFormats`).
    static func metadataFormats(_ bytes: [UInt8]) throws -> [OAIMetadataFormat.Offered] {
        let (root, _) = try envelope(bytes)
        if let error = root.child(OAINamespace.oai, "error") {
            throw OAIError(code: error.attribute("code") ?? "unknown", message: error.text)
        }
        guard let list = root.child(OAINamespace.oai, "ListMetadataFormats") else {
            throw SourceFormatError("the OAI-PMH answer has no ListMetadataFormats")
        }
        return list.children(OAINamespace.oai, "metadataFormat").compactMap { format in
            guard let prefix = format.child(OAINamespace.oai, "metadataPrefix")?.text, !prefix.isEmpty else {
                return nil
            }
            return .init(prefix: prefix, namespace: format.child(OAINamespace.oai, "metadataNamespace")?.text ?? "")
        }
    }
}

extension OAIResponseParser {
    /// One page of `ListIdentifiers`: the identifiers present and deleted, and the next token.
    struct IdentifierPage: Equatable {
        var present: [String]
        var deleted: [String]
        var responseDate: String?
        var resumptionToken: String?
    }

    static func identifierPage(_ bytes: [UInt8]) throws -> IdentifierPage {
        let (root, responseDate) = try envelope(bytes)
        if let error = root.child(OAINamespace.oai, "error") {
            let code = error.attribute("code") ?? "unknown"
            if code == "noRecordsMatch" { return IdentifierPage(present: [], deleted: [], responseDate: responseDate) }
            throw OAIError(code: code, message: error.text)
        }
        guard let list = root.child(OAINamespace.oai, "ListIdentifiers") else {
            throw SourceFormatError("the OAI-PMH answer has no ListIdentifiers")
        }
        var page = IdentifierPage(present: [], deleted: [], responseDate: responseDate)
        for header in list.children(OAINamespace.oai, "header") {
            guard let identifier = header.child(OAINamespace.oai, "identifier")?.text, !identifier.isEmpty else {
                continue
            }
            if header.attribute("status") == "deleted" {
                page.deleted.append(identifier)
            } else {
                page.present.append(identifier)
            }
        }
        let token = list.child(OAINamespace.oai, "resumptionToken")?.text ?? ""
        page.resumptionToken = token.isEmpty ? nil : token
        return page
    }
}
